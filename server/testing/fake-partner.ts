import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * A partner's servers for tests, over real HTTP on 127.0.0.1 (a random port): the ticket verification
 * endpoint (`GET {base}/tickets?user=`), an event feed (`GET {base}/feed`) and anything else (recorded,
 * answered 200, e.g. webhook deliveries). Every request is recorded with its headers and body, and the
 * fake can be told to misbehave: an HTTP status, a hang, a huge body, bad JSON, renamed fields.
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/api/tickets`. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeTicket {
  ticketId: string;
  externalReferenceEventId: string;
  showId?: string | null;
  ticketOptionId: string;
  price: number | string;
  currency: string;
  status: string;
  tags?: string[];
  [extra: string]: unknown;
}

/** How the next answers misbehave; `null` behaves normally. Applies to every path until cleared. */
export type Misbehaviour =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'huge'; bytes: number }
  | { kind: 'badJson' }
  | { kind: 'json'; body: unknown }
  | null;

let seq = 0;

export class FakePartner {
  readonly requests: RecordedRequest[] = [];
  /** Owned tickets per e-mail (lower-cased). */
  private readonly tickets = new Map<string, FakeTicket[]>();
  /** What `/feed` answers. */
  feed: unknown = { externalReferenceId: 'evt-1', shows: [] };
  /** Overrides the `userEmail` the verification answer claims (ownership-mismatch tests). */
  answerAsUser: string | null = null;
  /** Our field name → the name this partner uses, applied to the verification answer and its tickets. */
  renamedFields: Record<string, string> = {};
  misbehaviour: Misbehaviour = null;

  private constructor(
    private readonly server: http.Server,
    /** `http://127.0.0.1:<port>` */
    readonly origin: string,
  ) {}

  static async start(): Promise<FakePartner> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakePartner(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => fake.handle(req, res));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Sets what the partner says `email` owns. */
  setTickets(email: string, tickets: FakeTicket[]): void {
    this.tickets.set(email.toLowerCase(), tickets);
  }

  /** Forgets requests, tickets and misbehaviour between tests. */
  reset(): void {
    this.requests.length = 0;
    this.tickets.clear();
    this.feed = { externalReferenceId: 'evt-1', shows: [] };
    this.answerAsUser = null;
    this.renamedFields = {};
    this.misbehaviour = null;
  }

  requestsTo(pathSuffix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith(pathSuffix));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', this.origin);
      this.requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      this.answer(url, req, res);
    });
  }

  private answer(url: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
    const m = this.misbehaviour;
    if (m?.kind === 'hang') return; // never answers; close() drops the socket
    if (m?.kind === 'status') {
      res.writeHead(m.status, { 'content-type': 'application/json', ...m.headers });
      res.end(m.body ?? JSON.stringify({ error: `status ${m.status}` }));
      return;
    }
    if (m?.kind === 'huge') {
      // Streamed without a content-length, so the client's running byte count is what stops it.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let left = m.bytes;
      const pump = () => {
        while (left > 0) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
      return;
    }
    if (m?.kind === 'badJson') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"userEmail": "x", "tickets": [');
      return;
    }
    if (m?.kind === 'json') return this.json(res, m.body);

    if (req.method === 'GET' && url.pathname.endsWith('/tickets')) {
      const user = url.searchParams.get('user') ?? '';
      const tickets = (this.tickets.get(user.toLowerCase()) ?? []).map((t) => this.rename(t));
      return this.json(res, this.rename({ userEmail: this.answerAsUser ?? user, tickets }));
    }
    if (req.method === 'GET' && url.pathname.endsWith('/feed')) return this.json(res, this.feed);
    this.json(res, { received: true });
  }

  private rename(obj: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[this.renamedFields[k] ?? k] = v;
    return out;
  }

  private json(res: http.ServerResponse, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

/** A valid ticket as a partner would report it; override any field. */
export function fakeTicket(overrides: Partial<FakeTicket> = {}): FakeTicket {
  seq += 1;
  return {
    ticketId: `tkt-${seq}`,
    externalReferenceEventId: 'evt-1',
    showId: 'show-1',
    ticketOptionId: 'opt-1',
    price: '45.50',
    currency: 'EUR',
    status: 'VALID',
    tags: ['section:A', 'row:12'],
    ...overrides,
  };
}

/** A feed event in the spec's shape: one show, Standard model unless `priceDetail`. */
export function fakeFeedEvent(opts: { externalReferenceId?: string; priceDetail?: boolean } = {}) {
  const show: Record<string, unknown> = {
    showId: 'show-1',
    status: 'ON_SALE',
    dates: { startsAt: '2030-06-01T20:00:00+02:00' },
    ticketOptions: [
      { ticketId: 'opt-1', title: 'Floor', description: 'Standing', currency: 'EUR', price: 50 },
      { ticketId: 'opt-2', title: 'Balcony', description: 'Seated', currency: 'EUR', price: '65.00' },
    ],
  };
  if (opts.priceDetail) {
    show.priceTypes = [{ priceTypeId: 'adult' }, { priceTypeId: 'child' }];
    show.combinations = [
      { ticketOptionId: 'opt-1', priceTypeId: 'adult', price: 50 },
      { ticketOptionId: 'opt-1', priceTypeId: 'child', price: '25.00', description: 'Under 12' },
    ];
  }
  return { externalReferenceId: opts.externalReferenceId ?? 'evt-1', title: 'Concert', shows: [show] };
}

/**
 * A FakePartner for a whole test file: started in its beforeAll, reset after each test, closed in its
 * afterAll. What it returns stands for the server started then (it forwards every read and write to it).
 */
export function fakePartnerInFile(): FakePartner {
  let server: FakePartner | null = null;
  beforeAll(async () => {
    server = await FakePartner.start();
  });
  afterEach(() => server?.reset());
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error('the fake partner starts in beforeAll');
    return server;
  };
  return new Proxy({} as FakePartner, {
    get(_, key) {
      const value: unknown = Reflect.get(started(), key);
      return typeof value === 'function' ? value.bind(started()) : value;
    },
    set: (_, key, value) => Reflect.set(started(), key, value),
  });
}
