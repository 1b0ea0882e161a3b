import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { webhookEndpoints } from '@/db/schema/webhooks';
import { badRequest, notFound } from '@/server/lib/errors';
import { newSigningSecret } from '@/server/lib/ids';
import { transaction, type Work } from '@/server/lib/transaction';
import { partnerUrlProblem } from '@/server/lib/outbound';
import { getPartner } from '@/server/modules/partners';
import { type UpsertEndpointInput, upsertEndpointInput } from './schemas';
import { dispatchSoon } from './outbox';

function mask(value: string | null): string | null {
  return value ? `••••${value.slice(-4)}` : null;
}

/** The endpoint as staff see it: secrets masked. */
export async function getEndpoint(partnerId: string, db: DbOrTx) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, partnerId));
  if (!row) return null;
  return {
    partnerId: row.partnerId,
    url: row.url,
    enabled: row.enabled,
    secretHeaderName: row.secretHeaderName,
    secretHeaderValueHint: mask(row.secretHeaderValue),
    signingSecretHint: mask(row.signingSecret),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Creates or updates the partner's receiver. A new endpoint gets a signing secret, returned once.
 * Enabling an endpoint releases the messages held while it was disabled (they are already due).
 */
export async function upsertEndpoint(input: UpsertEndpointInput, within: Work | Db) {
  const data = upsertEndpointInput.parse(input);
  const problem = await partnerUrlProblem(data.url, 'url');
  if (problem) throw badRequest(problem.message, [problem]);
  return transaction(async ({ tx: db, after }) => {
    await getPartner(data.partnerId, db);
    const [existing] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, data.partnerId));
    const headerName =
      data.secretHeaderName === undefined ? (existing?.secretHeaderName ?? null) : data.secretHeaderName || null;
    const headerValue =
      data.secretHeaderValue === undefined ? (existing?.secretHeaderValue ?? null) : data.secretHeaderValue || null;
    if (Boolean(headerName) !== Boolean(headerValue)) {
      throw badRequest('A secret header needs both a name and a value', [
        { path: headerName ? 'secretHeaderValue' : 'secretHeaderName', message: 'is required with the other' },
      ]);
    }
    const signingSecret = existing?.signingSecret ?? newSigningSecret();
    await db
      .insert(webhookEndpoints)
      .values({
        partnerId: data.partnerId,
        url: data.url,
        enabled: data.enabled,
        secretHeaderName: headerName,
        secretHeaderValue: headerValue,
        signingSecret,
      })
      .onConflictDoUpdate({
        target: webhookEndpoints.partnerId,
        set: {
          url: data.url,
          enabled: data.enabled,
          secretHeaderName: headerName,
          secretHeaderValue: headerValue,
          updatedAt: sql`now()`,
        },
      });
    // An enabled endpoint gets what waits for it (held while it was missing or disabled) now, not at the sweep.
    if (data.enabled) dispatchSoon(after);
    return { endpoint: await getEndpoint(data.partnerId, db), signingSecret: existing ? null : signingSecret };
  }, within);
}

/** A new signing secret, returned once; deliveries sign with it from now on. */
export async function rotateSigningSecret(partnerId: string, db: DbOrTx): Promise<string> {
  const signingSecret = newSigningSecret();
  const [row] = await db
    .update(webhookEndpoints)
    .set({ signingSecret, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.partnerId, partnerId))
    .returning({ partnerId: webhookEndpoints.partnerId });
  if (!row) throw notFound('No webhook endpoint is configured for this partner');
  return signingSecret;
}
