/**
 * The traffic the faults are played under: a few clients, each looping over a partner's calls (POST
 * /v1/tickets, POST /v1/sync/tickets, POST buyIntention) and a fan's buy page, spread over every instance in
 * turn (a dead or stopping one included: what it answers, or that it refuses, is counted). Every answer is
 * kept with when it was sent and received; every write answered 2xx is kept for the durability checks.
 */
import { partnerTicket } from '@/server/testing/partner-ticket';

export type Route = 'tickets' | 'sync' | 'buy' | 'page' | 'probe';
/** An HTTP status, or what happened instead of one. */
export type Outcome = number | 'refused' | 'reset' | 'timeout' | 'error';

export interface Answer {
  route: Route;
  instance: number;
  sentAt: number;
  at: number;
  status: Outcome;
  retryAfter: boolean;
  /** A 503 page (not /v1) in Encore's outage page: HTML with Retry-After. */
  branded: boolean;
  requestId: string | null;
  /** Why a 5xx other than 503 was answered: its body's start. */
  detail?: string;
}

/** A partner's market for the traffic: its key, event, the fan page's address and listings to buy. */
export interface Market {
  partnerId: string;
  key: string;
  ref: string;
  pagePath: string;
  listings: string[];
}

export interface Writes {
  batches: { batchId: string; partnerId: string; ticketIds: string[]; at: number }[];
  synced: { partnerId: string; ticketId: string; at: number }[];
  holds: { intentionId: string; listingId: string; at: number }[];
}

export interface Sent {
  answer: Answer;
  body: unknown;
}

/** One request to `base`, its outcome kept as an Answer (never throws). */
export async function request(
  base: string,
  instance: number,
  route: Route,
  path: string,
  init: RequestInit = {},
): Promise<Sent> {
  const sentAt = Date.now();
  const answer: Answer = {
    route,
    instance,
    sentAt,
    at: 0,
    status: 'error',
    retryAfter: false,
    branded: false,
    requestId: null,
  };
  let body: unknown = null;
  try {
    const res = await fetch(`${base}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(20_000), ...init });
    const text = await res.text();
    answer.status = res.status;
    answer.retryAfter = res.headers.has('retry-after');
    answer.requestId = res.headers.get('x-request-id');
    const html = (res.headers.get('content-type') ?? '').startsWith('text/html');
    answer.branded = res.status === 503 && html && answer.retryAfter;
    if (res.status >= 500 && res.status !== 503) answer.detail = text.slice(0, 300);
    body = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  } catch (err) {
    answer.status = failureOf(err);
  }
  answer.at = Date.now();
  return { answer, body };
}

function failureOf(err: unknown): Outcome {
  const e = err as { name?: string; cause?: { code?: string; name?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  const code = e.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) return 'reset';
  return 'error';
}

const OPS: Route[] = ['tickets', 'buy', 'page', 'sync', 'buy', 'page'];
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 4);
/** A client's pause between two requests: a few dozen requests a second in all, on two cores. */
const PAUSE_MS = 40;
/** POST /v1/sync/tickets is limited to 60 a minute per partner: at most one every 1.5 s. */
const SYNC_EVERY_MS = 1500;

export class Traffic {
  readonly answers: Answer[] = [];
  readonly writes: Writes = { batches: [], synced: [], holds: [] };
  private running = false;
  private loops: Promise<void>[] = [];
  private turn = 0;
  private seq = 0;
  private lastSync = 0;

  constructor(
    private readonly bases: string[],
    private readonly market: Market,
  ) {}

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: CLIENTS }, (_, client) => this.loop(client));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** The answers received between `from` and `to` (ms since the epoch). */
  between(from: number, to = Date.now()): Answer[] {
    return this.answers.filter((a) => a.at >= from && a.at <= to);
  }

  private async loop(client: number): Promise<void> {
    for (let i = client; this.running; i += CLIENTS) {
      let op = OPS[i % OPS.length];
      if (op === 'sync') {
        if (Date.now() - this.lastSync < SYNC_EVERY_MS) op = 'tickets';
        else this.lastSync = Date.now();
      }
      const instance = this.turn++ % this.bases.length;
      const sent = await this.send(op, instance);
      this.answers.push(sent.answer);
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  }

  private send(op: Route, instance: number): Promise<Sent> {
    const base = this.bases[instance];
    const m = this.market;
    if (op === 'page') return request(base, instance, op, m.pagePath, { headers: { accept: 'text/html' } });
    const n = ++this.seq;
    if (op === 'buy') {
      const listingId = m.listings[Math.floor(Math.random() * m.listings.length)];
      const body = { items: [listingId], user: `fan${n}@chaos.test` };
      return this.write(base, instance, op, '/v1/marketplace/buyingflow/buyIntention', body, (data, at) => {
        const id = (data as { id: string }).id;
        this.writes.holds.push({ intentionId: id, listingId, at });
      });
    }
    const tickets = (op === 'tickets' ? [0, 1] : [0]).map((k) =>
      partnerTicket(m.ref, `CH-${n}-${k}`, `owner${n}@chaos.test`),
    );
    const path = op === 'tickets' ? '/v1/tickets' : '/v1/sync/tickets';
    return this.write(base, instance, op, path, tickets, (data, at) => {
      if (op === 'tickets') {
        const { batchId } = data as { batchId: string };
        this.writes.batches.push({ batchId, partnerId: m.partnerId, ticketIds: tickets.map((t) => t.ticketId), at });
      } else {
        for (const t of (data as { tickets: { ticketId: string; status: string }[] }).tickets) {
          if (t.status === 'imported') this.writes.synced.push({ partnerId: m.partnerId, ticketId: t.ticketId, at });
        }
      }
    });
  }

  private async write(
    base: string,
    instance: number,
    route: Route,
    path: string,
    body: unknown,
    onOk: (data: unknown, at: number) => void,
  ): Promise<Sent> {
    const sent = await request(base, instance, route, path, {
      method: 'POST',
      headers: { authorization: this.market.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const status = sent.answer.status;
    if (typeof status === 'number' && status >= 200 && status < 300) {
      onOk((sent.body as { data: unknown }).data, sent.answer.at);
    }
    return sent;
  }
}
