import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { OUTAGE_RETRY_AFTER_S } from '@/server/lib/db-faults';
import { databaseDown, databaseProbing } from '@/server/lib/db-health';
import { databaseUnavailable } from '@/server/lib/errors';
import { log } from '@/server/lib/log';
import type { SeatMapDocument } from '@/server/modules/fan-pages';
import { setClientAddress } from './client-address';
import { type RenderGate, renderGate } from './render-gate';
import { requestLocale, sharedPageAddress } from './shared-page-address';
import { sharedPages, takeFillMark } from './shared-page-render';
import { requestIdFrom } from './request-id';
import { errorBody } from './envelope';
import { outageDocument } from './page-guard';
import {
  API_CONTENT_SECURITY_POLICY,
  COMMON_SECURITY_HEADERS,
  REFERRER_POLICY,
  strictTransportSecurity,
} from './security-headers';

const gzip = promisify(zlib.gzip);
/** The buy page's seat map document (fan-pages seat-map.ts): `/market/<eventPk>/map`. */
const SEAT_MAP_PATH = /^\/market\/[A-Za-z0-9_]{1,64}\/map(\?|$)/;

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

export interface ListenerOptions {
  /** Next.js's request handler (or, in tests, a stand-in for it). */
  handle: RequestHandler;
  /** TRUSTED_PROXY_HOPS. */
  hops: number;
  /** Keep shared pages in this process (EDGE_CACHE=false). */
  keepPages: boolean;
  /** The port the server listens on, once it does (fills come back to it over loopback). */
  port: () => number;
  gate?: RenderGate;
  /** The version of the shared page at a canonical address, as a render now would stamp it (shared-page-render.ts). */
  pageVersion?: (path: string) => Promise<string | null>;
  /** The build's id (part of a shared page's ETag). */
  buildId?: string;
  /** The buy page's seat map document (fan-pages `seatMapDocument`), answered here without Next.js. */
  seatMap?: (url: URL) => Promise<SeatMapDocument>;
}

/**
 * Encore's HTTP server's one request listener (server/start.ts), in front of Next.js — the supported place
 * for what Next.js cannot do from inside (nothing of Node.js is patched):
 * 1. the client's address, from the socket and the trusted proxies only (client-address.ts);
 * 2. an anonymous fan's buy page answered as a shared page (shared-page-render.ts), by its canonical address;
 * 3. the render gate for buy pages rendered for one fan, and for the shared pages' own renders (render-gate.ts);
 * 4. the buy page's seat map document, a memory read and a copy (fan-pages seat-map.ts): through Next.js, its
 *    routing and the proxy cost more than the document itself, and a page view asks for both.
 */
export function encoreListener(options: ListenerOptions): http.RequestListener {
  const gate = options.gate ?? renderGate();
  const pages = sharedPages({
    port: options.port,
    keep: options.keepPages,
    version: options.pageVersion,
    buildId: options.buildId,
  });
  const render = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = req.url ?? '/';
    // The pages among the gated paths.
    if (res instanceof EncoreResponse && OUTAGE_GATED.test(url) && !OWN_FAULT_FORMAT.test(url)) res.outageAware = true;
    gate.admit(req, res, () => void options.handle(req, res));
  };
  return (req, res) => {
    // A fill is this process asking itself for a shared page: no one's page, so no client address.
    if (takeFillMark(req, pages.secret)) return render(req, res);
    // One id for the request, whoever answers it (this server, the proxy, a route, an error line).
    req.headers['x-request-id'] = requestIdFrom(req.headers['x-request-id']);
    setClientAddress(req, options.hops);
    const shared = sharedPageAddress({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      header: (name) => headerOf(req, name),
    });
    if (databaseDown() && OUTAGE_GATED.test(req.url ?? '/')) return answerOutage(req, res);
    if (shared) return void pages.answer(req, res, shared);
    if (options.seatMap && req.method === 'GET' && SEAT_MAP_PATH.test(req.url ?? '')) {
      return void answerSeatMap(req, res, options.seatMap).catch((err: unknown) => {
        log.error('seat map document failed', { error: String(err) });
        if (!res.headersSent) render(req, res);
      });
    }
    render(req, res);
  };
}

/**
 * What the outage gate answers itself while the database is unreachable: every page and `/v1` call, not
 * Next.js's own files, the health check, the widget's script or the API reference (none reads the database).
 */
const OUTAGE_GATED = /^\/(?!_next\/|healthz(?:[/?]|$)|widget\/|docs(?:[/?]|$)|icon\.svg|favicon\.ico|robots\.txt)/;

/** The gated paths that answer a database fault in their own format: `/v1` (a 503 envelope), `/api/` (tRPC's error). */
const OWN_FAULT_FORMAT = /^\/(?:v1(?:[/?]|$)|api\/)/;

/**
 * Encore's HTTP server's responses (`http.createServer({ ServerResponse: EncoreResponse })`, Node.js's own
 * option for its response class; nothing is patched). A page the listener marks `outageAware` that Next.js
 * fails (a 5xx) after a connection fault, while the database is unreachable or the probe asks whether it is
 * (db-health.ts), is answered with the outage page rather than an error page: the first fans to meet an
 * outage, before the gate closes, get the same truthful, retryable 503 as those after. Next.js's writeHead
 * decides, or its first write or end when it set only statusCode; what Next.js writes after that is dropped.
 */
class EncoreResponse extends http.ServerResponse {
  outageAware = false;
  private replaced = false;

  private takeOver(status: number): boolean {
    if (this.replaced) return true;
    if (!this.outageAware || this.headersSent || status < 500 || !(databaseDown() || databaseProbing())) return false;
    this.replaced = true;
    for (const name of this.getHeaderNames()) this.removeHeader(name);
    const { headers, body } = outageAnswer(this.req);
    super.writeHead(503, headers);
    super.end(this.req.method === 'HEAD' ? undefined : body);
    return true;
  }

  override writeHead(status: number, ...rest: unknown[]): this {
    if (this.takeOver(status)) return this;
    return (super.writeHead as (...args: unknown[]) => this)(status, ...rest);
  }

  override write(...args: unknown[]): boolean {
    if (this.takeOver(this.statusCode)) return true;
    return (super.write as (...a: unknown[]) => boolean)(...args);
  }

  override end(...args: unknown[]): this {
    if (!this.takeOver(this.statusCode)) return (super.end as (...a: unknown[]) => this)(...args);
    const done = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return this;
  }
}

/** Encore's HTTP server: its responses are EncoreResponse (server/start.ts, and the tests' stand-in). */
export function encoreServer(listener?: http.RequestListener): http.Server {
  const options = { ServerResponse: EncoreResponse as typeof http.ServerResponse };
  return listener ? http.createServer(options, listener) : http.createServer(options);
}

/**
 * A 503 with Retry-After while the database is unreachable (server/lib/db-health.ts): the envelope on
 * `/v1`, else Encore's branded page in the fan's language (the address's `lang`, the remembered one, the
 * browser's), with the headers every answer carries.
 */
function answerOutage(req: http.IncomingMessage, res: http.ServerResponse): void {
  const { headers, body } = outageAnswer(req);
  res.writeHead(503, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function outageAnswer(req: http.IncomingMessage): { headers: http.OutgoingHttpHeaders; body: string } {
  const url = new URL(req.url ?? '/', 'http://encore');
  const headers: http.OutgoingHttpHeaders = {
    ...everyAnswerHeaders(req),
    'retry-after': String(OUTAGE_RETRY_AFTER_S),
    'cache-control': 'no-store',
  };
  let body: string;
  if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-security-policy'] = API_CONTENT_SECURITY_POLICY;
    body = JSON.stringify(errorBody(databaseUnavailable()));
  } else {
    const locale = requestLocale(url, (name) => headerOf(req, name));
    headers['content-type'] = 'text/html; charset=utf-8';
    headers['content-security-policy'] = OUTAGE_PAGE_POLICY;
    body = outageDocument(locale, `${url.pathname}${url.search}`);
  }
  headers['content-length'] = Buffer.byteLength(body);
  return { headers, body };
}

/**
 * The outage page is a plain document: its one style block and our icon, nothing else. The reference edge's
 * own outage page (edge/nginx.conf `@outage`) sends the same (its tests compare).
 */
export const OUTAGE_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Sends the seat map document with the headers Next.js and the proxy give every answer (next.config.ts,
 * proxy.ts): the request id, nosniff, the permissions and referrer policies, HSTS over https; gzipped when
 * the client takes it.
 */
async function answerSeatMap(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  seatMap: (url: URL) => Promise<SeatMapDocument>,
): Promise<void> {
  const doc = await seatMap(new URL(req.url ?? '/', 'http://encore'));
  const headers: http.OutgoingHttpHeaders = { ...doc.headers, ...everyAnswerHeaders(req) };
  let body = Buffer.from(doc.body);
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = await gzip(body, { level: 6 });
    headers['content-encoding'] = 'gzip';
  }
  headers.vary = 'Accept-Encoding';
  headers['content-length'] = body.length;
  res.writeHead(doc.status, headers);
  res.end(body);
}

/** A request header as one string (repeated ones joined). */
function headerOf(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The headers Next.js and the proxy give every answer (next.config.ts, proxy.ts), for what this server
 * answers itself: the request id, nosniff, the permissions and referrer policies, HSTS over https. The
 * reference edge's outage answers (edge/nginx.conf `@outage`, `@api_outage`) carry the same (its tests compare).
 */
export function everyAnswerHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { 'x-request-id': requestIdFrom(req.headers['x-request-id']) };
  for (const { key, value } of [...COMMON_SECURITY_HEADERS, REFERRER_POLICY.usual]) headers[key.toLowerCase()] = value;
  const hsts = strictTransportSecurity(
    (req.socket as { encrypted?: boolean }).encrypted === true,
    headerOf(req, 'x-forwarded-proto'),
  );
  if (hsts) headers['strict-transport-security'] = hsts;
  return headers;
}
