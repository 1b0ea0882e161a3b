import { createHmac } from 'node:crypto';
import type { Sql } from 'postgres';
import { getSql } from '@/db';
import { OutboundError, partnerRequest } from '@/server/lib/outbound';
import { errorFields, log } from '@/server/lib/log';
import { retryDelayMs, SUCCESS_STATUSES } from './schedule';

/** How long a claimed message is reserved for the dispatcher that claimed it. */
const LEASE_MS = 5 * 60_000;
const ATTEMPT_TIMEOUT_MS = 10_000;

interface Claimed {
  id: string;
  partner_id: string;
  family: string;
  action: string;
  /** The message's data as JSON text (spliced into the body as is: no parse and re-serialisation). */
  data: string;
  attempts: number;
  url: string;
  secret_header_name: string | null;
  secret_header_value: string | null;
  signing_secret: string;
}

interface AttemptResult {
  id: string;
  partnerId: string;
  attemptNo: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  requestHeaders: Record<string, string>;
  success: boolean;
  nextAttemptAt: Date;
}

export interface DispatchOptions {
  /** The clock: due messages are those with next_attempt_at ≤ now; retries are scheduled from it. */
  now?: Date;
  /** Messages claimed per round. */
  batchSize?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Stop claiming new rounds after this long (the job is re-run by its trigger or cron). */
  budgetMs?: number;
  random?: () => number;
}

export interface DispatchResult {
  delivered: number;
  failed: number;
  /** The earliest time a pending message (of an enabled endpoint) becomes due, if any. */
  nextDueAt: Date | null;
}

/**
 * Claims due messages of enabled endpoints (SKIP LOCKED, so several dispatchers on several instances
 * never send the same message at once), delivers them, and records every attempt. A message whose
 * dispatcher died mid-flight is due again when its lease ends: delivery is at least once, and the
 * stable webhook-id lets receivers drop duplicates.
 */
export async function dispatchDue(opts: DispatchOptions = {}): Promise<DispatchResult> {
  const sql = getSql();
  const batchSize = opts.batchSize ?? 200;
  const concurrency = opts.concurrency ?? 32;
  const deadline = Date.now() + (opts.budgetMs ?? 50_000);
  const result: DispatchResult = { delivered: 0, failed: 0, nextDueAt: null };

  for (;;) {
    const now = opts.now ?? new Date();
    const claimed = await sql<Claimed[]>`
      with due as (
        select m.id from webhook_messages m
        join webhook_endpoints e on e.partner_id = m.partner_id and e.enabled
        where m.status = 'pending' and m.next_attempt_at <= ${now.toISOString()}::text::timestamptz
        order by m.next_attempt_at
        limit ${batchSize}
        for update of m skip locked
      )
      update webhook_messages m set next_attempt_at = ${new Date(now.getTime() + LEASE_MS).toISOString()}::text::timestamptz
      from due, webhook_endpoints e
      where m.id = due.id and e.partner_id = m.partner_id
      returning m.id, m.partner_id, m.family, m.action, m.data::text as data, m.attempts,
        e.url, e.secret_header_name, e.secret_header_value, e.signing_secret`;
    if (claimed.length === 0) break;

    const results = await mapLimit(claimed, concurrency, (m) => attempt(m, now, opts.random));
    await record(sql, results);
    log.debug('webhook dispatch round', { claimed: results.length, now: now.toISOString() });
    for (const r of results) {
      if (r.success) result.delivered++;
      else result.failed++;
    }
    if (claimed.length < batchSize || Date.now() > deadline) break;
  }

  // drizzle makes postgres.js hand timestamps over as strings (and take them only as strings).
  const [next] = await sql<{ at: string | null }[]>`
    select min(m.next_attempt_at) as at from webhook_messages m
    join webhook_endpoints e on e.partner_id = m.partner_id and e.enabled
    where m.status = 'pending'`;
  result.nextDueAt = next?.at ? new Date(next.at) : null;
  return result;
}

/**
 * The Standard Webhooks v1 signature: HMAC-SHA256 of `id.timestamp.body` keyed by the secret's base64
 * part. Node's crypto instead of the library's pure-JS SHA-256, which cost ~13 µs more per delivery;
 * webhooks.test.ts and the e2e verify these signatures with the library.
 */
function sign(secret: string, id: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const timestamp = Math.floor(at.getTime() / 1000);
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

async function attempt(m: Claimed, now: Date, random?: () => number): Promise<AttemptResult> {
  const body = `{"family":${JSON.stringify(m.family)},"action":${JSON.stringify(m.action)},"data":${m.data}}`;
  // The signature carries the real time (receivers check it against their clock), not the test clock.
  const sentAt = new Date();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': m.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': sign(m.signing_secret, m.id, sentAt, body),
  };
  if (m.secret_header_name && m.secret_header_value)
    headers[m.secret_header_name.toLowerCase()] = m.secret_header_value;

  const attemptNo = m.attempts + 1;
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let responseBody: string | null = null;
  try {
    const res = await partnerRequest(m.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: 256 * 1024,
    });
    statusCode = res.status;
    responseBody = res.body.slice(0, 1024);
    if (!SUCCESS_STATUSES.has(res.status)) {
      error = res.status >= 300 && res.status < 400 ? `redirect ${res.status} not followed` : `HTTP ${res.status}`;
    }
  } catch (err) {
    error = err instanceof OutboundError ? `${err.kind}: ${err.message}` : (err as Error).message;
  }
  const success = statusCode !== null && SUCCESS_STATUSES.has(statusCode);
  return {
    id: m.id,
    partnerId: m.partner_id,
    attemptNo,
    url: m.url,
    startedAt: sentAt,
    durationMs: Math.round(performance.now() - started),
    statusCode,
    error,
    responseBody,
    requestHeaders: maskSecretHeader(headers, m.secret_header_name),
    success,
    nextAttemptAt: success ? now : new Date(now.getTime() + retryDelayMs(attemptNo, random)),
  };
}

/**
 * The headers as stored for support: all of them (the signature lets staff check a receiver's
 * verification), except the partner's shared secret header, whose value is a credential.
 */
function maskSecretHeader(headers: Record<string, string>, secretName: string | null): Record<string, string> {
  if (!secretName) return { ...headers };
  const name = secretName.toLowerCase();
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k === name ? '••••••••' : v]));
}

/** Writes all attempts of a round and the messages' new state in one statement (so one transaction). */
async function record(tx: Sql, results: AttemptResult[]): Promise<void> {
  // Every parameter goes in as text and is cast in SQL: drizzle replaces postgres.js's timestamp
  // serializers, and typed timestamp parameters then fail on re-executed prepared statements.
  const text = (values: (string | number | boolean | null)[]) =>
    tx.array(values.map((v) => (v === null ? null : String(v))) as string[]);
  await tx`
    with v as (
      select * from unnest(
        ${text(results.map((r) => r.id))}::text[],
        ${text(results.map((r) => r.partnerId))}::text[],
        ${text(results.map((r) => r.attemptNo))}::text[]::int[],
        ${text(results.map((r) => r.url))}::text[],
        ${text(results.map((r) => r.startedAt.toISOString()))}::text[]::timestamptz[],
        ${text(results.map((r) => r.durationMs))}::text[]::int[],
        ${text(results.map((r) => r.statusCode))}::text[]::int[],
        ${text(results.map((r) => r.error))}::text[],
        ${text(results.map((r) => r.responseBody))}::text[],
        ${text(results.map((r) => r.success))}::text[]::boolean[],
        ${text(results.map((r) => r.nextAttemptAt.toISOString()))}::text[]::timestamptz[],
        ${text(results.map((r) => JSON.stringify(r.requestHeaders)))}::text[]::jsonb[]
      ) as t(id, partner_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, success,
        next_at, request_headers)
    ),
    attempts as (
      insert into webhook_attempts
        (message_id, partner_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, success,
         request_headers)
      select id, partner_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, success,
        request_headers
      from v
    )
    update webhook_messages m set
      status = case when v.success then 'delivered' else 'pending' end,
      attempts = v.attempt_no,
      next_attempt_at = v.next_at,
      last_attempt_at = v.started_at,
      last_status_code = v.status_code,
      last_error = v.error,
      delivered_at = case when v.success then now() else null end
    from v
    where m.id = v.id`;
  for (const r of results) {
    if (!r.success) log.debug('webhook attempt failed', { messageId: r.id, attempt: r.attemptNo, error: r.error });
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (err) {
        log.error('webhook attempt crashed', errorFields(err));
        throw err;
      }
    }
  });
  await Promise.all(workers);
  return out;
}
