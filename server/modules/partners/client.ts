import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { AppError, badRequest, type ErrorDetail, formatPath } from '@/server/lib/errors';
import { isCurrencyCode, toMinorUnits } from '@/server/lib/money';
import { OutboundError, partnerRequest } from '@/server/lib/outbound';
import { type IntegrationRow, loadIntegration } from './integration';
import { testVerificationInput } from './schemas';
import { getPartner } from './partners';

/**
 * Encore's calls to a partner's own servers (spec, "Partner-side interfaces"): ticket verification
 * (PULL ownership, asked fresh every time) and the event feed. Both go through `partnerRequest`, so
 * URL rules, timeouts and size caps are the same as for webhooks.
 */

const VERIFICATION_TIMEOUT_MS = 5_000;
const VERIFICATION_MAX_BYTES = 1024 * 1024;
const FEED_TIMEOUT_MS = 15_000;
const FEED_MAX_BYTES = 5 * 1024 * 1024;

/* ---------- Errors ---------- */

export type PartnerCallReason =
  | 'not_configured'
  | 'invalid_url'
  | 'forbidden_address'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'invalid_json'
  | 'invalid_answer'
  | 'ownership_mismatch';

/**
 * Why a call to a partner failed. Not configured is a 409 (the partner's setup is incomplete);
 * everything else is the partner's server failing us: 502.
 */
export class PartnerCallError extends AppError {
  readonly reason: PartnerCallReason;
  /** The partner's HTTP status, for `http_status`. */
  readonly httpStatus?: number;

  constructor(reason: PartnerCallReason, message: string, opts: { details?: ErrorDetail[]; httpStatus?: number } = {}) {
    super(reason === 'not_configured' ? 'CONFLICT' : 'BAD_GATEWAY', message, { details: opts.details });
    this.reason = reason;
    this.httpStatus = opts.httpStatus;
  }
}

/* ---------- Transport ---------- */

const REASON_OF_KIND: Record<OutboundError['kind'], PartnerCallReason> = {
  invalid_url: 'invalid_url',
  invalid_request: 'unreachable',
  forbidden_address: 'forbidden_address',
  timeout: 'timeout',
  too_large: 'too_large',
  network: 'unreachable',
  bad_response: 'unreachable',
};

function authHeaders(row: IntegrationRow): Record<string, string> {
  return row.authHeaderName && row.authHeaderValue ? { [row.authHeaderName.toLowerCase()]: row.authHeaderValue } : {};
}

/** GET a partner URL and parse its JSON; every failure becomes a PartnerCallError naming `what` failed. */
async function getJson(
  what: string,
  url: string,
  opts: { headers: Record<string, string>; timeoutMs: number; maxResponseBytes: number },
): Promise<{ json: unknown; durationMs: number }> {
  let res;
  try {
    res = await partnerRequest(url, { method: 'GET', ...opts });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const reason = REASON_OF_KIND[err.kind];
    const message =
      reason === 'timeout'
        ? `The partner's ${what} did not answer within ${opts.timeoutMs / 1000} s`
        : reason === 'too_large'
          ? `The partner's ${what} answered more than ${opts.maxResponseBytes / 1024 / 1024} MiB`
          : reason === 'unreachable'
            ? `The partner's ${what} could not be reached: ${err.message}`
            : `The partner's ${what} URL is refused: ${err.message}`;
    throw new PartnerCallError(reason, message);
  }
  if (res.status < 200 || res.status > 299) {
    const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
    throw new PartnerCallError('http_status', `The partner's ${what} answered HTTP ${res.status}${redirect}`, {
      httpStatus: res.status,
    });
  }
  try {
    return { json: JSON.parse(res.body) as unknown, durationMs: res.durationMs };
  } catch (err) {
    throw new PartnerCallError(
      'invalid_json',
      `The partner's ${what} did not answer valid JSON (${(err as Error).message})`,
    );
  }
}

/* ---------- Validation messages ---------- */

/** One readable sentence per zod issue: "tickets[2].ticketId is required". */
function issueDetails(error: z.ZodError, describeKey: (key: string) => string = () => ''): ErrorDetail[] {
  return error.issues.slice(0, 50).map((issue) => {
    const path = formatPath(issue.path);
    const last = issue.path[issue.path.length - 1];
    const note = typeof last === 'string' ? describeKey(last) : '';
    const subject = `${path || 'The answer'}${note}`;
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined;
    let text: string;
    if (missing) text = 'is required';
    else if (issue.code === 'invalid_type')
      text = `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    else if (issue.code === 'invalid_format' && issue.format === 'datetime') {
      text = 'must be an ISO 8601 date and time with a time zone offset';
    } else text = issue.message;
    return { path, message: `${subject} ${text}` };
  });
}

function summarize(details: ErrorDetail[]): string {
  const first = details[0]?.message ?? 'unknown problem';
  return details.length > 1 ? `${first} (and ${details.length - 1} more)` : first;
}

/* ---------- Shared field schemas ---------- */

/** Partner ids are strings; whole numbers are accepted too (many systems emit numeric ids) and kept as text. */
export const partnerIdField = z
  .union([z.string().min(1, 'must not be empty'), z.number().int()], { error: 'must be a string' })
  .transform(String);

export const amountField = z
  .union([z.number(), z.string()], { error: 'must be a number or a numeric string' })
  .refine((v) => (typeof v === 'number' ? Number.isFinite(v) && v >= 0 : /^\s*\d+(\.\d+)?\s*$/.test(v)), {
    message: 'must be a non-negative decimal number',
  });

export const currencyCodeField = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .refine(isCurrencyCode, { message: 'must be an ISO 4217 currency code (e.g. EUR)' });

/* ---------- Ticket verification ---------- */

const verificationTicket = z
  .object({
    ticketId: partnerIdField,
    externalReferenceEventId: partnerIdField,
    showId: partnerIdField.nullable().optional(),
    ticketOptionId: partnerIdField,
    price: amountField,
    currency: currencyCodeField,
    status: z.string().trim().min(1, 'must not be empty'),
    tags: z.array(z.string().regex(/^[^:]+:.+$/s, { message: "must be a 'key:value' string" })).optional(),
  })
  .transform((t, ctx) => {
    const money = toMinorUnits(t.price, t.currency);
    if ('error' in money) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: money.error });
      return z.NEVER;
    }
    return {
      ticketId: t.ticketId,
      externalReferenceEventId: t.externalReferenceEventId,
      showId: t.showId ?? null,
      ticketOptionId: t.ticketOptionId,
      /** As the partner sent it, in major units (`45.50`). */
      price: String(t.price).trim(),
      priceMinor: money.minor,
      currency: t.currency,
      status: t.status.toUpperCase(),
      tags: t.tags ?? [],
    };
  });

export const verificationAnswer = z.object({
  userEmail: z.string().trim().min(1, 'must not be empty'),
  tickets: z.array(verificationTicket),
});

export type VerifiedTicket = z.output<typeof verificationTicket>;

export interface TicketVerification {
  /** The user asked about, as asked. */
  userEmail: string;
  /** Tickets the partner reports VALID for this user: the only ones Encore may act on. */
  tickets: VerifiedTicket[];
  /** Everything else in the answer, with the reason it cannot be used. */
  ineligible: { ticket: VerifiedTicket; reason: string }[];
  checkedAt: Date;
  durationMs: number;
}

/** `{verificationUrl}/tickets?user=…`, whether or not the base ends with `/`, keeping any query it has. */
export function verificationRequestUrl(verificationUrl: string, userEmail: string): string {
  const url = new URL(verificationUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/tickets`;
  url.searchParams.set('user', userEmail);
  return url.toString();
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Renames the partner's field names to ours (partner name → our name), at the top level and in each
 * ticket. When a partner sends both a mapped field and a field already carrying our name, the mapped
 * one wins: the mapping is the staff's explicit statement of where the value is.
 */
export function applyFieldMap(answer: unknown, map: Record<string, string>): unknown {
  if (Object.keys(map).length === 0 || !isObject(answer)) return answer;
  const rename = (obj: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) if (!(k in map)) out[k] = v;
    for (const [k, v] of Object.entries(obj)) if (k in map) out[map[k]] = v;
    return out;
  };
  const top = rename(answer);
  if (Array.isArray(top.tickets)) top.tickets = top.tickets.map((t: unknown) => (isObject(t) ? rename(t) : t));
  return top;
}

async function configuredIntegration(partnerId: string, db: DbOrTx): Promise<IntegrationRow | null> {
  await getPartner(partnerId, db);
  return loadIntegration(partnerId, db);
}

/**
 * Asks the partner which tickets `userEmail` owns right now (never cached) and returns the valid ones.
 * Refuses an answer about another user: ownership must be exact.
 */
export async function verifyTickets(partnerId: string, userEmail: string, db: DbOrTx): Promise<TicketVerification> {
  const asked = testVerificationInput.shape.userEmail.safeParse(userEmail);
  if (!asked.success) {
    throw badRequest('Enter a valid e-mail address', [{ path: 'userEmail', message: asked.error.issues[0].message }]);
  }
  const email = asked.data;
  const row = await configuredIntegration(partnerId, db);
  if (!row?.verificationUrl) {
    throw new PartnerCallError('not_configured', 'This partner has no ticket verification URL configured');
  }
  const checkedAt = new Date();
  const { json, durationMs } = await getJson(
    'verification endpoint',
    verificationRequestUrl(row.verificationUrl, email),
    {
      headers: {
        accept: 'application/json',
        // Ownership changes at any moment; no cache between us and the partner may answer for it.
        'cache-control': 'no-cache',
        pragma: 'no-cache',
        ...authHeaders(row),
      },
      timeoutMs: VERIFICATION_TIMEOUT_MS,
      maxResponseBytes: VERIFICATION_MAX_BYTES,
    },
  );

  const map = row.verificationFieldMap;
  const partnerNameOf = new Map(Object.entries(map).map(([from, to]) => [to, from]));
  const parsed = verificationAnswer.safeParse(applyFieldMap(json, map), { reportInput: true });
  if (!parsed.success) {
    const details = issueDetails(parsed.error, (key) => {
      const from = partnerNameOf.get(key);
      return from ? ` (partner field “${from}”)` : '';
    });
    throw new PartnerCallError(
      'invalid_answer',
      `The partner's verification answer does not match the expected shape: ${summarize(details)}`,
      { details },
    );
  }
  const answer = parsed.data;
  if (answer.userEmail.toLowerCase() !== email.toLowerCase()) {
    // The other user's address is deliberately not repeated: this message may reach the asking user.
    throw new PartnerCallError(
      'ownership_mismatch',
      "The partner's verification answer is about a different user than the one asked about; no ticket from it is used",
      { details: [{ path: 'userEmail', message: 'does not match the user asked about' }] },
    );
  }

  const occurrences = new Map<string, number>();
  for (const t of answer.tickets) occurrences.set(t.ticketId, (occurrences.get(t.ticketId) ?? 0) + 1);
  const tickets: VerifiedTicket[] = [];
  const ineligible: TicketVerification['ineligible'] = [];
  for (const ticket of answer.tickets) {
    const times = occurrences.get(ticket.ticketId) ?? 0;
    if (times > 1) ineligible.push({ ticket, reason: `ticketId appears ${times} times in the answer` });
    else if (ticket.status !== 'VALID') ineligible.push({ ticket, reason: `status is ${ticket.status}, not VALID` });
    else tickets.push(ticket);
  }
  return { userEmail: email, tickets, ineligible, checkedAt, durationMs };
}

/* ---------- Event feed ---------- */

/**
 * GETs the partner's event feed and answers its JSON as sent; the catalogue module checks its shape
 * (feed-schemas.ts) and applies it. Every failure is a PartnerCallError.
 */
export async function fetchFeedAnswer(
  partnerId: string,
  db: DbOrTx,
): Promise<{ json: unknown; fetchedAt: Date; durationMs: number }> {
  const row = await configuredIntegration(partnerId, db);
  if (!row?.feedUrl) throw new PartnerCallError('not_configured', 'This partner has no event feed URL configured');
  const fetchedAt = new Date();
  const { json, durationMs } = await getJson('event feed', row.feedUrl, {
    headers: { accept: 'application/json', ...authHeaders(row) },
    timeoutMs: FEED_TIMEOUT_MS,
    maxResponseBytes: FEED_MAX_BYTES,
  });
  return { json, fetchedAt, durationMs };
}

/** A partner's answer that does not match its expected shape, every problem named. */
export function invalidAnswer(what: string, error: z.ZodError): PartnerCallError {
  const details = issueDetails(error);
  return new PartnerCallError(
    'invalid_answer',
    `The partner's ${what} does not match the expected shape: ${summarize(details)}`,
    {
      details,
    },
  );
}

/* ---------- Dashboard test actions ---------- */

/** A test call's outcome: the result, or the partner's failure as data (it is what staff asked to see). */
export type CallOutcome<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      error: { reason: PartnerCallReason; message: string; details: ErrorDetail[]; httpStatus: number | null };
    };

export async function callOutcome<T>(run: () => Promise<T>): Promise<CallOutcome<T>> {
  try {
    return { ok: true, result: await run() };
  } catch (err) {
    if (!(err instanceof PartnerCallError)) throw err;
    return {
      ok: false,
      error: {
        reason: err.reason,
        message: err.message,
        details: err.details ?? [],
        httpStatus: err.httpStatus ?? null,
      },
    };
  }
}

export function testVerification(partnerId: string, userEmail: string, db: DbOrTx) {
  return callOutcome(() => verifyTickets(partnerId, userEmail, db));
}
