import { and, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/db';
import { auditLog } from '@/db/schema/audit';
import { likeEscape } from '@/server/lib/paging';
import { transaction, type Work } from '@/server/lib/transaction';
import { type AuditActor, type AuditQuery, auditQuery } from './schemas';

export type AuditEntry = typeof auditLog.$inferSelect;

/** The signed-in staff member as an actor: shown by e-mail. */
export function staffActor(staff: { id: string; email: string }): AuditActor {
  return { kind: 'staff', id: staff.id, label: staff.email };
}

/** A partner's signed-in user as an actor: shown by e-mail. */
export function partnerUserActor(user: { id: string; email: string }): AuditActor {
  return { kind: 'partner_user', id: user.id, label: user.email };
}

/**
 * A partner or channels key as an actor: shown by its visible prefix, never the key. (A publishable key opens
 * no call that changes anything; typed here only because it is a kind of key.)
 */
export function keyActor(key: {
  keyId: string;
  keyPrefix: string;
  kind: 'partner' | 'channels' | 'publishable';
}): AuditActor {
  return { kind: key.kind === 'channels' ? 'channel_key' : 'partner_key', id: key.keyId, label: key.keyPrefix };
}

const REDACTED = '[redacted]';
/** Field names whose values are secrets (key hashes, signing secrets, passwords, tokens, auth header values). */
const SECRET_FIELD = /secret|password|hash|token|authorization|header_?value|credential|^api_?key$/i;
/** …but a header's name, a masked hint ("…a1b2") or a "was set" flag tells nothing of the secret. */
const NOT_SECRET_FIELD = /(name|hint|set)$/i;
/** Values that are secrets whatever their field is called: whole keys (a 6-character prefix is not) and signing secrets. */
const SECRET_VALUE = /^(sk_live_|sk_ch_|sk_test_ch_|sk_test_)[A-Za-z0-9]{12,}|^whsec_/;

/** A copy of `value` with every secret replaced by "[redacted]" (a null stays null: "none set" is not a secret). */
export function redactSecrets(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        // Only a string holds a secret: a flag such as `passwordChanged: true` is kept.
        SECRET_FIELD.test(k) && !NOT_SECRET_FIELD.test(k) && typeof v === 'string' && v !== ''
          ? REDACTED
          : redactSecrets(v),
      ]),
    );
  }
  return value;
}

export interface NewAuditEntry {
  actor: AuditActor;
  /** Null for global changes (staff members). */
  partnerId: string | null;
  action: string;
  target: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

/**
 * Records a change. Call it with the transaction that makes the change, so a rollback leaves no record
 * and a commit never lacks one. Secrets in before/after are redacted here, whatever the caller passes.
 */
export async function recordAudit(tx: Tx, entry: NewAuditEntry): Promise<void> {
  const json = (v: unknown) => (v === undefined ? null : JSON.parse(JSON.stringify(redactSecrets(v))));
  await tx.insert(auditLog).values({
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label,
    partnerId: entry.partnerId,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before: json(entry.before),
    after: json(entry.after),
    requestId: entry.requestId ?? null,
  });
}

export interface AuditedChange<T> {
  actor: AuditActor;
  action: string;
  /** Null for global changes; a function when the change creates the partner. */
  partnerId: string | null | ((result: T) => string | null);
  target: { type: string; id: string } | ((result: T) => { type: string; id: string });
  /** The thing as it was, read in the change's transaction before it runs. */
  before?: (tx: Tx) => Promise<unknown>;
  /** The thing as it is after (default: what the change answered). */
  after?: (result: T, tx: Tx) => unknown;
  /** A deletion: what the change answered is the thing as it was, and nothing is after. */
  removes?: boolean;
  requestId?: string | null;
}

/**
 * Runs a change and records it in one transaction: `run` gets the Work (pass it, or its `tx`, to the
 * owning module's function). An error rolls back the change and its record together. (`run` comes first
 * so TypeScript learns the result's type from it before reading `change`.) Given `within`, joins it (a
 * route's `ctx.commit`, which stores the call's answer in the same transaction).
 */
export async function audited<T>(
  run: (work: Work) => Promise<T>,
  change: AuditedChange<T>,
  within: Work | Db,
): Promise<T> {
  return transaction(async (work) => {
    let before = change.before ? await change.before(work.tx) : undefined;
    const result = await run(work);
    let after = change.after ? await change.after(result, work.tx) : result;
    if (change.removes) [before, after] = [result, null];
    await recordAudit(work.tx, {
      actor: change.actor,
      partnerId: typeof change.partnerId === 'function' ? change.partnerId(result) : change.partnerId,
      action: change.action,
      target: typeof change.target === 'function' ? change.target(result) : change.target,
      before,
      after,
      requestId: change.requestId,
    });
    return result;
  }, within);
}

/** One page of the log, newest first; `cursor` is the last id of the previous page (keyset). */
export async function listAuditEntries(input: AuditQuery, db: DbOrTx) {
  const q = auditQuery.parse(input);
  const where: (SQL | undefined)[] = [
    q.partnerId ? eq(auditLog.partnerId, q.partnerId) : undefined,
    q.actor ? ilike(auditLog.actorLabel, `%${likeEscape(q.actor)}%`) : undefined,
    q.action ? ilike(auditLog.action, `${likeEscape(q.action)}%`) : undefined,
    q.from ? gte(auditLog.at, q.from) : undefined,
    // `to` is a day: the whole of it is included.
    q.to ? lt(auditLog.at, new Date(q.to.getTime() + 86_400_000)) : undefined,
    q.cursor ? lte(auditLog.id, q.cursor - 1) : undefined,
  ];
  if (q.q) {
    const pattern = `%${likeEscape(q.q)}%`;
    where.push(
      or(
        ilike(auditLog.action, pattern),
        ilike(auditLog.actorLabel, pattern),
        ilike(auditLog.targetId, pattern),
        ilike(auditLog.targetType, pattern),
        sql`${auditLog.before}::text ilike ${pattern}`,
        sql`${auditLog.after}::text ilike ${pattern}`,
      ),
    );
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit);
  return { items, nextCursor: rows.length > q.limit ? items[items.length - 1].id : null };
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The fields that differ between before and after, by dotted path (arrays compared whole). */
export function changedFields(before: unknown, after: unknown): FieldChange[] {
  const flat = (value: unknown, prefix: string, out: Map<string, unknown>) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (!entries.length && prefix) out.set(prefix, value);
      for (const [k, v] of entries) flat(v, prefix ? `${prefix}.${k}` : k, out);
    } else out.set(prefix || 'value', value ?? null);
    return out;
  };
  const b = flat(before ?? null, '', new Map());
  const a = flat(after ?? null, '', new Map());
  const fields = [...new Set([...b.keys(), ...a.keys()])];
  return fields
    .filter((f) => JSON.stringify(b.get(f) ?? null) !== JSON.stringify(a.get(f) ?? null))
    .map((field) => ({ field, before: b.get(field) ?? null, after: a.get(field) ?? null }));
}
