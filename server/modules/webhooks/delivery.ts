import { createHmac } from 'node:crypto';
import type { Sql } from 'postgres';
import { getSql } from '@/db';
import { OutboundError, partnerRequest } from '@/server/lib/outbound';
import { errorFields, log } from '@/server/lib/log';
import { retryDelayMs, SUCCESS_STATUSES } from './schedule';

/** How long a claimed message is reserved for the dispatcher that claimed it. */
export const LEASE_MS = 5 * 60_000;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a finished attempt may wait for a fuller batch before it is written. */
const WRITE_DELAY_MS = 20;

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
  /** Messages claimed per claim statement. */
  batchSize?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Finished attempts written per statement, at most (fewer when delivery is slower than the writes). */
  writeBatchSize?: number;
  /** Stop claiming after this long (the job is re-run by its trigger or cron); what is claimed is delivered. */
  budgetMs?: number;
  random?: () => number;
}

export interface DispatchResult {
  delivered: number;
  failed: number;
  /** The earliest time a pending message (of an enabled endpoint) becomes due, if any. */
  nextDueAt: Date | null;
}

/** A claimed message with the clock of its claim (retries are scheduled from it). */
interface Leased {
  message: Claimed;
  now: Date;
}

/**
 * Claims due messages of enabled endpoints (SKIP LOCKED, so several dispatchers on several instances
 * never send the same message at once), delivers them, and records every attempt. A message whose
 * dispatcher died mid-flight is due again when its lease ends: delivery is at least once, and the
 * stable webhook-id lets receivers drop duplicates.
 *
 * One run is a pipeline, so the HTTP side never waits for the database: a claimer refills an
 * in-memory queue whenever it runs low, `concurrency` workers keep that many requests in flight, and
 * a writer records finished attempts in batches (attempt rows and message states in one statement)
 * while delivery goes on. A message is marked delivered only by the statement that writes its
 * attempt. At the budget the claimer stops; what was claimed is delivered and written before returning.
 */
export async function dispatchDue(opts: DispatchOptions = {}): Promise<DispatchResult> {
  const sql = getSql();
  const batchSize = opts.batchSize ?? 500;
  const concurrency = opts.concurrency ?? 32;
  const deadline = Date.now() + (opts.budgetMs ?? 50_000);
  const result: DispatchResult = { delivered: 0, failed: 0, nextDueAt: null };
  // Claim again while a queue this long still keeps the workers busy for the claim's duration.
  const lowWater = concurrency * 2;

  const queue: Leased[] = [];
  let head = 0;
  let claiming: Promise<void> | undefined;
  let claims = 0;
  let exhausted = false;
  let failure: { error: unknown } | undefined;

  const writer = new AttemptWriter(sql, opts.writeBatchSize ?? 250, (rs) => {
    for (const r of rs) {
      if (r.success) result.delivered++;
      else result.failed++;
    }
  });

  const refill = () => {
    if (claiming || exhausted || failure) return;
    if (claims > 0 && Date.now() >= deadline) {
      exhausted = true;
      return;
    }
    claims++;
    const now = opts.now ?? new Date();
    claiming = claim(sql, now, batchSize)
      .then(
        (rows) => {
          for (const message of rows) queue.push({ message, now });
          if (rows.length < batchSize) exhausted = true;
          log.debug('webhook dispatch claimed', { claimed: rows.length, now: now.toISOString() });
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => {
        claiming = undefined;
      });
  };

  const take = async (): Promise<Leased | undefined> => {
    for (;;) {
      if (failure || writer.failed) return undefined;
      if (queue.length - head <= lowWater) refill();
      if (head < queue.length) {
        const job = queue[head++];
        if (head >= 1024 && head * 2 >= queue.length) {
          queue.splice(0, head);
          head = 0;
        }
        return job;
      }
      if (!claiming) return undefined;
      await claiming;
    }
  };

  const workers = Array.from({ length: concurrency }, async () => {
    for (let job = await take(); job; job = await take()) {
      try {
        writer.add(await attempt(job.message, job.now, opts.random));
      } catch (error) {
        log.error('webhook attempt crashed', errorFields(error));
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  await writer.close();
  // Claimed but not attempted (after a failure) stays leased: it is due again when its lease ends.
  if (failure) throw failure.error;
  if (writer.failed) throw writer.failed.error;

  // drizzle makes postgres.js hand timestamps over as strings (and take them only as strings).
  const [next] = await sql<{ at: string | null }[]>`
    select least(
      (select min(m.next_attempt_at) from webhook_messages m
        join webhook_endpoints e on e.partner_id = m.partner_id and e.enabled
        where m.status = 'pending' and m.channel_id is null),
      (select min(m.next_attempt_at) from webhook_messages m
        join channels c on c.id = m.channel_id and c.webhook_url is not null and c.disabled_at is null
        where m.status = 'pending' and m.channel_id is not null)) as at`;
  result.nextDueAt = next?.at ? new Date(next.at) : null;
  return result;
}

/**
 * Leases up to `limit` due messages of enabled endpoints to this dispatcher, oldest due first.
 *
 * The due messages are read in the due index's order, stopping at `limit`. Right after a burst of
 * messages the table's statistics still say few are due, and the planner would rather collect every
 * due row with a bitmap scan and sort them, on every claim (measured: 8–20 ms per claim of 200 at
 * 5,000 due, growing with the backlog, against 0.2 ms in index order); bitmap scans are off for this
 * claim's transaction. The enabled endpoints are a filter (an array), not a join, for the same reason.
 */
export function claim(sql: Sql, now: Date, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  return sql.begin(async (tx) => {
    const [, partners, channels] = await Promise.all([
      tx`set local enable_bitmapscan = off`,
      tx<Claimed[]>`
        with due as (
          select m.id from webhook_messages m
          where m.status = 'pending' and m.next_attempt_at <= ${at}::text::timestamptz
            and m.channel_id is null
            and m.partner_id = any(array(select e.partner_id from webhook_endpoints e where e.enabled))
          order by m.next_attempt_at
          limit ${limit}
          for update of m skip locked
        )
        update webhook_messages m set next_attempt_at = ${lease}::text::timestamptz
        from due, webhook_endpoints e
        where m.id = due.id and e.partner_id = m.partner_id
        returning m.id, m.partner_id, m.family, m.action, m.data::text as data, m.attempts,
          e.url, e.secret_header_name, e.secret_header_value, e.signing_secret`,
      // Messages to channels (their own small due index): the channel's URL and secret. The channels table
      // belongs to the partners module; the claim reads it here as it reads the partner's endpoint, in the
      // claim's own statement, since a statement per message would cost more than the delivery.
      tx<Claimed[]>`
        with due as (
          select m.id from webhook_messages m
          where m.status = 'pending' and m.channel_id is not null and m.next_attempt_at <= ${at}::text::timestamptz
            and m.channel_id = any(array(
              select c.id from channels c where c.webhook_url is not null and c.disabled_at is null))
          order by m.next_attempt_at
          limit ${limit}
          for update of m skip locked
        )
        update webhook_messages m set next_attempt_at = ${lease}::text::timestamptz
        from due, channels c
        where m.id = due.id and c.id = m.channel_id
        returning m.id, m.partner_id, m.family, m.action, m.data::text as data, m.attempts,
          c.webhook_url as url, null::text as secret_header_name, null::text as secret_header_value,
          c.signing_secret`,
    ]);
    return channels.length ? [...partners, ...channels] : partners;
  });
}

/**
 * Records finished attempts in the background, one statement (`record`) at a time: a batch goes as
 * soon as `batchSize` attempts are waiting, or `WRITE_DELAY_MS` after the first of a smaller one, so a
 * slow receiver's attempts are not held back. Attempts finishing during a write join the next batch.
 * After a failed write nothing more is written (those messages stay leased and are retried).
 */
class AttemptWriter {
  private pending: AttemptResult[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  failed: { error: unknown } | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly batchSize: number,
    private readonly onWritten: (results: AttemptResult[]) => void,
  ) {}

  add(result: AttemptResult): void {
    this.pending.push(result);
    this.flush(false);
  }

  /** Writes what is waiting and waits for it; throws nothing (see `failed`). */
  async close(): Promise<void> {
    while (!this.failed && (this.writing || this.pending.length > 0)) {
      this.flush(true);
      await this.writing;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(force: boolean): void {
    if (this.writing || this.failed || this.pending.length === 0) return;
    if (!force && this.pending.length < this.batchSize) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flush(true);
      }, WRITE_DELAY_MS);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0, this.batchSize);
    this.writing = record(this.sql, batch)
      .then(
        () => this.onWritten(batch),
        (error: unknown) => {
          log.error('could not record webhook attempts', { attempts: batch.length, ...errorFields(error) });
          this.failed = { error };
        },
      )
      .finally(() => {
        this.writing = undefined;
        this.flush(false);
      });
  }
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
    responseBody = storable(res.body.slice(0, 1024));
    if (!SUCCESS_STATUSES.has(res.status)) {
      error = res.status >= 300 && res.status < 400 ? `redirect ${res.status} not followed` : `HTTP ${res.status}`;
    }
  } catch (err) {
    error = storable(err instanceof OutboundError ? `${err.kind}: ${err.message}` : (err as Error).message);
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
 * Text as PostgreSQL can store it: no NUL, and no half of a surrogate pair (the 1 KiB cut of an answer
 * can split an emoji). Either would fail the statement recording a whole batch of attempts.
 */
function storable(text: string): string {
  return text.toWellFormed().replaceAll('\0', '');
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

/**
 * Writes a batch of attempts and the messages' new state in one statement (so one transaction). The
 * batch goes over as one JSON parameter (JSON.stringify is native; a dozen text arrays cost ~2x the
 * CPU in postgres.js). The messages are found by their ids (an array, so an index lookup whatever the
 * table's statistics say; joined to the batch they were hashed and the whole table scanned).
 */
async function record(sql: Sql, results: AttemptResult[]): Promise<void> {
  const rows = JSON.stringify(
    results.map((r) => ({
      id: r.id,
      partner_id: r.partnerId,
      attempt_no: r.attemptNo,
      url: r.url,
      started_at: r.startedAt,
      duration_ms: r.durationMs,
      status_code: r.statusCode,
      error: r.error,
      response_body: r.responseBody,
      success: r.success,
      next_at: r.nextAttemptAt,
      request_headers: r.requestHeaders,
    })),
  );
  await sql`
    with v as materialized (
      select * from json_to_recordset(${rows}::json) as t(id text, partner_id text, attempt_no int, url text,
        started_at timestamptz, duration_ms int, status_code int, error text, response_body text, success boolean,
        next_at timestamptz, request_headers jsonb)
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
    where m.id = v.id and m.id = any(array(select id from v))`;
  for (const r of results) {
    if (!r.success) log.debug('webhook attempt failed', { messageId: r.id, attempt: r.attemptNo, error: r.error });
  }
}
