/*
 * Wiping a test partner's data (test mode): each module that owns tables deletes the rows of
 * its tables for the partner, inside the caller's transaction, given proof that the partner is a test
 * twin: a `TestPartnerWipe`, which only the partners module's `lockTestPartnerForWipe` makes (its
 * statement locks the partner's row where, and only where, the partner's mode is test).
 */

declare const testWipeBrand: unique symbol;

/** Proof, inside a transaction, that `partnerId` is a test partner locked for a wipe. */
export interface TestPartnerWipe {
  readonly partnerId: string;
  readonly [testWipeBrand]: true;
}

/** Rows deleted per table, for the audit record and the dashboard's answer. */
export type WipeCounts = Record<string, number>;

/** How many rows a DELETE without RETURNING removed (postgres.js reports it as `count`). */
export async function deleted(statement: PromiseLike<unknown>): Promise<number> {
  const result = (await statement) as { count?: number };
  return result.count ?? 0;
}
