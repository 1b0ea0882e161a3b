import { createHmac } from 'node:crypto';
import type { Fragment, Sql, TransactionSql } from 'postgres';
import { OutboundError, partnerRequest } from '@/server/lib/outbound';
import { errorFields, log } from '@/server/lib/log';
import type { DeliveredAttempt } from '@/db/schema/webhooks';
import { retryDelayMs, SUCCESS_STATUSES } from './schedule';
import { processCache } from '@/server/lib/short-cache';

const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * How long a claimed message is reserved for the dispatcher that claimed it: three attempts' timeouts,
 * renewed every third of it while the dispatcher still holds the message (queued or in flight), so a
 * live dispatcher keeps what it claimed however long its queue, and the messages of one that died are
 * due again within this time (the dispatch queued for the lease's end runs on a live instance).
 */
export const LEASE_MS = 3 * ATTEMPT_TIMEOUT_MS;
const RENEW_EVERY_MS = LEASE_MS / 3;
/**
 * How long a finished attempt may wait for a fuller batch before it is written. At 20 ms a dispatcher
 * delivering ~5,000 messages/s wrote ~100 attempts per statement; PostgreSQL spends ~20% less per attempt
 * in statements of 250 (measured), and an attempt written 50 ms later changes nothing for anyone.
 */
const WRITE_DELAY_MS = 50;

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

export interface AttemptResult {
  id: string;
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
  /**
   * Told each time this run's lease ends later (a claim, a renewal): the job asks for a dispatch then, so
   * if this process dies, a live one takes its messages over when the lease ends.
   */
  onLease?: (until: Date) => void;
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
export async function dispatchDue(sql: Sql, opts: DispatchOptions = {}): Promise<DispatchResult> {
  const batchSize = opts.batchSize ?? 500;
  const concurrency = opts.concurrency ?? 32;
  const deadline = Date.now() + (opts.budgetMs ?? 50_000);
  const result: DispatchResult = { delivered: 0, failed: 0, nextDueAt: null };
  // Claim again while the queue still holds a whole claim's worth: under load a claim of 500 takes 20–40 ms
  // to come back (measured), longer than twice the workers' count lasts at ~8,000 deliveries/s.
  const lowWater = Math.max(concurrency * 2, batchSize);

  const queue: Leased[] = [];
  let head = 0;
  let claiming: Promise<void> | undefined;
  let claims = 0;
  let exhausted = false;
  let failure: { error: unknown } | undefined;

  const { held, stop: stopRenewing } = leaseKeeper(sql, opts.onLease);

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
          for (const message of rows) {
            queue.push({ message, now });
            held.add(message.id);
          }
          if (rows.length) opts.onLease?.(new Date(now.getTime() + LEASE_MS));
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
        held.delete(job.message.id);
      } catch (error) {
        log.error('webhook attempt crashed', errorFields(error));
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  await writer.close().finally(stopRenewing);
  // Claimed but not attempted (after a failure) stays leased: it is due again when its lease ends.
  if (failure) throw failure.error;
  if (writer.failed) throw writer.failed.error;

  result.nextDueAt = await nextDueAt(sql);
  return result;
}

/** The messages a run holds (claimed, not yet attempted to the end) and the timer renewing their lease. */
function leaseKeeper(sql: Sql, onLease: DispatchOptions['onLease']) {
  const held = new Set<string>();
  const timer = setInterval(() => void renewLeases(sql, held, onLease), RENEW_EVERY_MS);
  timer.unref();
  return { held, stop: () => clearInterval(timer) };
}

/**
 * Extends the lease of the messages a run still holds (those still leased: a message whose lease ran
 * out may be another dispatcher's by now, and keeps that one's lease).
 */
async function renewLeases(sql: Sql, held: ReadonlySet<string>, onLease: DispatchOptions['onLease']) {
  if (held.size === 0) return;
  try {
    const [row] = await sql<{ until: string | null }[]>`
      with renewed as (
        update webhook_due set leased_until = now() + ${`${LEASE_MS} milliseconds`}::interval
        where message_id = any(${sql.array([...held])}::text[]) and leased_until > now()
        returning leased_until
      )
      select max(leased_until)::text as until from renewed`;
    if (row?.until) onLease?.(new Date(row.until));
  } catch (error) {
    // A lease not renewed ends: the messages are delivered again by a live dispatcher (at least once).
    log.warn('webhook lease renewal failed', errorFields(error));
  }
}

/** The earliest time a pending message of an enabled endpoint (a partner's or a channel's) becomes due. */
async function nextDueAt(sql: Sql): Promise<Date | null> {
  // drizzle makes postgres.js hand timestamps over as strings (and take them only as strings).
  const [next] = await sql<{ at: string | null }[]>`
    select least(
      (select min(x.at) from webhook_endpoints e
        cross join lateral (
          select min(greatest(d.due_at, d.leased_until)) as at from webhook_due d
          where d.partner_id = e.partner_id and d.channel_id is null) x
        where e.enabled),
      (select min(x.at) from channel_webhook_endpoints c
        cross join lateral (
          select min(greatest(d.due_at, d.leased_until)) as at from webhook_due d where d.channel_id = c.channel_id) x
      )) as at`;
  return next?.at ? new Date(next.at) : null;
}

/**
 * Leases up to `limit` due messages of enabled endpoints to this dispatcher, oldest due first: their
 * `webhook_due` rows take a lease (a HOT update of a small table of its own, so the claim writes no
 * index and nothing of the messages'), and the messages are read by id.
 *
 * Each enabled receiver's due rows are read in its index's order (partner or channel, then due time),
 * stopping at `limit`, and the oldest `limit` of those are leased (the others' locks end with the claim's
 * transaction). So a claim never walks the backlog of a partner whose endpoint is missing or disabled:
 * those messages wait in the queue, unread. Right after a burst of messages the table's statistics still
 * say few are due, and the planner would rather collect every due row with a bitmap scan and sort them,
 * on every claim (measured: 8–20 ms per claim of 200 at 5,000 due, growing with the backlog, against
 * 0.2 ms in index order), or scan the whole table for the channels' few due rows; bitmap and sequential
 * scans are off for this claim's transaction. The messages are found by an array of ids (an index lookup
 * whatever the statistics say), for the same reason. The locked due rows are leased by their row address
 * (ctid: stable while this statement holds their lock), without a second walk of the primary key.
 */
export function claim(sql: Sql, now: Date, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  return sql.begin(async (tx) => {
    const [, partners, channels] = await Promise.all([
      tx`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`,
      claimOf(tx, at, lease, limit, {
        receivers: tx`webhook_endpoints`,
        owns: tx`d.partner_id = e.partner_id and d.channel_id is null`,
        enabled: tx`where e.enabled`,
        headers: tx`e.secret_header_name, e.secret_header_value`,
        sentTo: tx`e.partner_id = m.partner_id`,
      }),
      // Messages to channels (their own small due index): the channel's URL and secret, through the view the
      // partners module (the channels table's owner) defines for this, in the claim's own statement, since a
      // statement per message would cost more than the delivery.
      claimOf(tx, at, lease, limit, {
        receivers: tx`channel_webhook_endpoints`,
        owns: tx`d.channel_id = e.channel_id`,
        enabled: tx``,
        headers: tx`null::text as secret_header_name, null::text as secret_header_value`,
        sentTo: tx`e.channel_id = m.channel_id`,
      }),
    ]);
    return channels.length ? [...partners, ...channels] : partners;
  });
}

/** What sets one kind of receiver's claim apart (`e` is a receiver, `d` a due row, `m` a message). */
interface Receivers {
  /** The receivers' table or view. */
  receivers: Fragment;
  /** Which due rows are receiver `e`'s (read through its due index). */
  owns: Fragment;
  /** Which receivers are delivered to (a `where`, or nothing). */
  enabled: Fragment;
  /** The columns `secret_header_name` and `secret_header_value` of receiver `e`. */
  headers: Fragment;
  /** Which receiver message `m` goes to. */
  sentTo: Fragment;
}

/** The claim (see `claim`) of one kind of receiver's due messages, in one statement. */
function claimOf(tx: TransactionSql, at: string, lease: string, limit: number, kind: Receivers) {
  return tx<Claimed[]>`
    with due as (
      select r.ctid from ${kind.receivers} e
      cross join lateral (
        select d.ctid, d.due_at from webhook_due d
        where ${kind.owns} and d.due_at <= ${at}::text::timestamptz
          and (d.leased_until is null or d.leased_until <= ${at}::text::timestamptz)
        order by d.due_at
        limit ${limit}
        for update of d skip locked
      ) r
      ${kind.enabled}
      order by r.due_at
      limit ${limit}
    ),
    leased as (
      update webhook_due d set leased_until = ${lease}::text::timestamptz
      where d.ctid = any(array(select ctid from due))
      returning d.message_id
    )
    select m.id, m.partner_id, m.family, m.action, m.data::text as data, m.attempts,
      e.url, ${kind.headers}, e.signing_secret
    from webhook_messages m join ${kind.receivers} e on ${kind.sentTo}
    where m.id = any(array(select message_id from leased))`;
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

/** Signing secrets decoded once, not per message (the decoding was ~2% of a dispatcher's CPU). */
const signingKeys = processCache<Buffer>('webhook-signing-keys', { max: 1000 });

/**
 * The Standard Webhooks v1 signature: HMAC-SHA256 of `id.timestamp.body` keyed by the secret's base64
 * part. Node's crypto instead of the library's pure-JS SHA-256, which cost ~13 µs more per delivery;
 * webhooks.test.ts and the e2e verify these signatures with the library.
 */
function sign(secret: string, id: string, at: Date, body: string): string {
  let key = signingKeys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    signingKeys.set(secret, key);
  }
  const timestamp = Math.floor(at.getTime() / 1000);
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * What one attempt sends: the spec's body (the stored data spliced in as is) and the Standard Webhooks
 * headers, plus the partner's secret header if it asked for one. `sentAt` is the real time (receivers
 * check the signature's timestamp against their clock). The webhook-delivery bench's bare clients post
 * requests built by this too, so both sides send the same bytes.
 */
export function webhookRequest(
  m: { id: string; family: string; action: string; data: string },
  signingSecret: string,
  secretHeader: { name: string; value: string } | null,
  sentAt: Date,
): { body: string; headers: Record<string, string> } {
  const body = `{"family":${JSON.stringify(m.family)},"action":${JSON.stringify(m.action)},"data":${m.data}}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': m.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': sign(signingSecret, m.id, sentAt, body),
  };
  if (secretHeader) headers[secretHeader.name.toLowerCase()] = secretHeader.value;
  return { body, headers };
}

async function attempt(m: Claimed, now: Date, random?: () => number): Promise<AttemptResult> {
  // The signature carries the real time, not the test clock.
  const sentAt = new Date();
  const { body, headers } = webhookRequest(
    m,
    m.signing_secret,
    m.secret_header_name && m.secret_header_value ? { name: m.secret_header_name, value: m.secret_header_value } : null,
    sentAt,
  );

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
  if (!secretName) return headers;
  const name = secretName.toLowerCase();
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k === name ? MASK : v]));
}

const MASK = '••••••••';

/**
 * The headers a delivered attempt kept on its message was sent with, as `webhookRequest` made them:
 * all but the signature follow from the message's id and the attempt's start (`lastAttemptAt`, the
 * signature's clock), so only the signature and the secret header's name are stored. Messages
 * delivered before that kept the whole map.
 */
export function sentHeaders(messageId: string, sentAt: Date, kept: DeliveredAttempt): Record<string, string> {
  if (kept.requestHeaders) return kept.requestHeaders;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': kept.signature ?? '',
  };
  if (kept.secretHeader) headers[kept.secretHeader] = MASK;
  return headers;
}

/** What a delivered message keeps of its attempt (see DeliveredAttempt). */
function keptOf(r: AttemptResult): DeliveredAttempt {
  const h = r.requestHeaders;
  const kept: DeliveredAttempt = { url: r.url, durationMs: r.durationMs, signature: h['webhook-signature'] };
  if (r.responseBody) kept.responseBody = r.responseBody;
  for (const k in h) if (h[k] === MASK) kept.secretHeader = k;
  return kept;
}

/**
 * Writes a batch of attempts and the messages' new state in one statement (so one transaction): a
 * delivered message leaves the queue (`webhook_due`) and keeps its attempt on its own row (a HOT update:
 * no index covers what changes); a failed attempt is a `webhook_attempts` row and moves the message's
 * due time to its retry (a message delivered meanwhile by another dispatcher stays delivered). The batch
 * goes over as one JSON parameter (JSON.stringify is native; a dozen text arrays cost ~2x the CPU in
 * postgres.js). Rows are found by arrays of ids (an index lookup whatever the tables' statistics say;
 * joined to the batch they were hashed and whole tables scanned). Exported for tests.
 */
export async function record(sql: Sql, results: AttemptResult[]): Promise<void> {
  // Short keys, times as epoch milliseconds and nulls left out: PostgreSQL's JSON parsing costs by the
  // byte. `a` is what a delivered message keeps of its attempt (json: stored as written, not parsed); at
  // ~400 bytes with the whole header map it cost ~40% of the statement, and the message's new version
  // no longer fitted its page (so the update was not HOT) for ~40% of deliveries (measured).
  const rows = JSON.stringify(
    results.map((r) => ({
      id: r.id,
      no: r.attemptNo,
      at: r.startedAt.getTime(),
      s: r.statusCode ?? undefined,
      e: r.error ?? undefined,
      ok: r.success,
      n: r.success ? undefined : r.nextAttemptAt.getTime(),
      // A failure's attempt becomes a row with its headers; a delivery keeps the short form.
      a: r.success
        ? keptOf(r)
        : { url: r.url, durationMs: r.durationMs, responseBody: r.responseBody, requestHeaders: r.requestHeaders },
    })),
  );
  await sql`
    with v as materialized (
      select id, no, to_timestamp(at / 1000.0) as at, s, e, ok, to_timestamp(n / 1000.0) as n, a
      from json_to_recordset(${rows}::json) as t(id text, no int, at bigint, s int, e text, ok boolean, n bigint, a json)
    ),
    delivered as (
      delete from webhook_due d where d.message_id = any(array(select id from v where ok))
    ),
    retried as (
      update webhook_due d set due_at = v.n, leased_until = null
      from v
      where d.message_id = v.id and d.message_id = any(array(select id from v where not ok))
    ),
    failed as (
      insert into webhook_attempts
        (message_id, partner_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, success,
         request_headers)
      select v.id, m.partner_id, v.no, v.a->>'url', v.at, (v.a->>'durationMs')::int, v.s, v.e, v.a->>'responseBody',
        false, (v.a->'requestHeaders')::jsonb
      from v join webhook_messages m on m.id = v.id
      where not v.ok and m.id = any(array(select id from v where not ok))
    )
    update webhook_messages m set
      status = case when v.ok then 'delivered' else 'pending' end,
      attempts = v.no,
      next_attempt_at = coalesce(v.n, m.next_attempt_at),
      last_attempt_at = v.at,
      last_status_code = v.s,
      last_error = v.e,
      delivered_at = case when v.ok then now() else null end,
      delivered_attempt = case when v.ok then v.a else null end
    from v
    -- A late failure (a duplicate attempt after a lease ran out) never undoes a delivery.
    where m.id = v.id and m.id = any(array(select id from v)) and (v.ok or m.status = 'pending')`;
  for (const r of results) {
    if (!r.success) log.debug('webhook attempt failed', { messageId: r.id, attempt: r.attemptNo, error: r.error });
  }
}
