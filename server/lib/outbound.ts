import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { Agent, util } from 'undici';
import { env } from '@/server/env';
import type { ErrorDetail } from './errors';
import { processCache } from './short-cache';

/**
 * The one client for every partner-supplied URL (webhooks, ticket verification, event feeds).
 * - https only in production; private, loopback, link-local and other non-public addresses refused,
 *   checked on the addresses the name resolves to *at connect time* (so DNS rebinding cannot slip a
 *   private address in between check and use), unless ALLOW_PRIVATE_PARTNER_URLS is set;
 * - a timeout on the whole exchange, a cap on the response size, redirects never followed.
 */

export class OutboundError extends Error {
  constructor(
    message: string,
    readonly kind:
      'invalid_url' | 'invalid_request' | 'forbidden_address' | 'timeout' | 'too_large' | 'network' | 'bad_response',
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Overrides ALLOW_PRIVATE_PARTNER_URLS (tests). */
  allowPrivate?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  durationMs: number;
}

const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const BLOCKED_V6: [string, number][] = [
  // ::/96 also covers the deprecated IPv4-compatible form (::127.0.0.1); IPv4-mapped is checked as IPv4.
  ['::', 96],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['100::', 64],
];
const blockList = new net.BlockList();
for (const [a, p] of BLOCKED_V4) blockList.addSubnet(a, p, 'ipv4');
for (const [a, p] of BLOCKED_V6) blockList.addSubnet(a, p, 'ipv6');

/** True for any address that is not plainly public unicast (IPv4-mapped IPv6 is checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blockList.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 4) return blockList.check(address, 'ipv4');
  if (family === 6) return blockList.check(address, 'ipv6');
  return true;
}

function allowPrivate(req: OutboundRequest): boolean {
  return req.allowPrivate ?? env().ALLOW_PRIVATE_PARTNER_URLS;
}

/** Validates the form of a partner URL (scheme, host); addresses are checked when connecting. */
export function checkPartnerUrl(raw: string, opts: { allowPrivate?: boolean } = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError(`Not a valid URL: ${raw}`, 'invalid_url');
  }
  const production = env().NODE_ENV === 'production';
  const privateOk = opts.allowPrivate ?? env().ALLOW_PRIVATE_PARTNER_URLS;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (!production || privateOk))) {
    throw new OutboundError('Partner URLs must use https', 'invalid_url');
  }
  if (url.username || url.password) throw new OutboundError('Partner URLs must not embed credentials', 'invalid_url');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!privateOk && net.isIP(host) && isPrivateAddress(host)) {
    throw new OutboundError(`Partner URL points at a private or reserved address (${host})`, 'forbidden_address');
  }
  // A trailing dot (`localhost.`) is the same name, fully qualified.
  if (!privateOk && /^(localhost|.*\.localhost|.*\.local|.*\.internal)\.?$/i.test(host)) {
    throw new OutboundError(`Partner URL points at a local host name (${host})`, 'forbidden_address');
  }
  return url;
}

/** dns.lookup that refuses private answers, used by the socket itself. */
function guardedLookup(privateOk: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0) return callback(new OutboundError(`${hostname} has no address`, 'network'), '', 4);
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (!privateOk && bad) {
        return callback(
          new OutboundError(
            `${hostname} resolves to a private or reserved address (${bad.address})`,
            'forbidden_address',
          ),
          '',
          4,
        );
      }
      if ((options as dns.LookupOptions).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * Keep-alive connection pools per origin (undici: about 2.5x less CPU per request than node:http's
 * client, measured by the webhook-delivery bench), one set guarded by the address check and one open
 * (ALLOW_PRIVATE_PARTNER_URLS), since the lookup is the pool's. At most 64 connections per origin.
 */
const dispatchers = {
  guarded: new Agent({ connections: 64, keepAliveTimeout: 10_000, connect: { lookup: guardedLookup(false) } }),
  open: new Agent({ connections: 64, keepAliveTimeout: 10_000, connect: { lookup: guardedLookup(true) } }),
};

/**
 * `checkPartnerUrl` plus a look at what the name resolves to now, so staff saving a URL whose name
 * points at a private address (e.g. via /etc/hosts) hear it at once. The connect-time check in
 * `partnerRequest` stays the real guard; a name that does not resolve yet is accepted here.
 */
/**
 * `checkPartnerUrlResolves` for a form or API field: what is wrong with the URL as the field's error
 * (`path`), or null. Other failures are thrown.
 */
export async function partnerUrlProblem(raw: string, path: string): Promise<ErrorDetail | null> {
  try {
    await checkPartnerUrlResolves(raw);
    return null;
  } catch (err) {
    if (err instanceof OutboundError) return { path, message: err.message };
    throw err;
  }
}

export async function checkPartnerUrlResolves(raw: string, opts: { allowPrivate?: boolean } = {}): Promise<URL> {
  const url = checkPartnerUrl(raw, opts);
  const privateOk = opts.allowPrivate ?? env().ALLOW_PRIVATE_PARTNER_URLS;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (privateOk || net.isIP(host)) return url;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return url;
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) {
    throw new OutboundError(`${host} resolves to a private or reserved address (${bad.address})`, 'forbidden_address');
  }
  return url;
}

/**
 * Checked URLs by raw text and the settings they were checked under, so a dispatcher posting thousands
 * of messages to one URL parses and checks it once (the address check stays at connect time). At most
 * TARGETS_MAX, the least lately used going first.
 */
const TARGETS_MAX = 1000;
const targets = processCache<{ origin: string; path: string }>('outbound-targets', { max: TARGETS_MAX });

function targetOf(rawUrl: string, privateOk: boolean): { origin: string; path: string } {
  const cacheKey = `${privateOk ? 1 : 0}${env().NODE_ENV === 'production' ? 1 : 0}${rawUrl}`;
  let target = targets.get(cacheKey);
  if (!target) {
    const url = checkPartnerUrl(rawUrl, { allowPrivate: privateOk });
    target = { origin: url.origin, path: `${url.pathname}${url.search}` };
    targets.set(cacheKey, target);
  }
  return target;
}

/** Sent with every partner call. */
export const USER_AGENT = 'Encore/1.0 (+partner integration)';

/** One request to a partner URL. Resolves for any HTTP status; rejects with OutboundError otherwise. */
export function partnerRequest(rawUrl: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
  let target: { origin: string; path: string };
  const privateOk = allowPrivate(req);
  try {
    target = targetOf(rawUrl, privateOk);
  } catch (err) {
    return Promise.reject(err);
  }
  const timeoutMs = req.timeoutMs ?? 10_000;
  const maxBytes = req.maxResponseBytes ?? 1024 * 1024;
  const started = performance.now();

  return new Promise((resolve, reject) => {
    const exchange = new Exchange(resolve, reject, timeoutMs, maxBytes, started);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...req.headers };
    // Redirects are never followed: undici follows them only through an interceptor.
    (privateOk ? dispatchers.open : dispatchers.guarded).dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: req.method ?? 'GET',
        headers,
        body: req.body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      exchange,
    );
  });
}

function timedOut(timeoutMs: number): OutboundError {
  return new OutboundError(`No complete answer within ${timeoutMs} ms`, 'timeout');
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError(`Response larger than ${maxBytes} bytes`, 'too_large');
}

function onExchangeTimeout(exchange: Exchange): void {
  exchange.fail(timedOut(exchange.timeoutMs));
}

/**
 * One request's undici handler: the answer is collected as it arrives, with no stream object per
 * response (undici's request() makes one), and settles the caller's promise exactly once. A class
 * rather than closures: a request allocates one object, not a dozen functions.
 */
class Exchange {
  private settled = false;
  /** The request's abort, handed over when undici connects it; a failure before that aborts it then. */
  private abort: ((reason: Error) => void) | undefined;
  private failedEarly: OutboundError | undefined;
  private readonly timer: NodeJS.Timeout;
  private status = 0;
  private rawHeaders: Buffer[] = [];
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly resolve: (res: OutboundResponse) => void,
    private readonly reject: (err: OutboundError) => void,
    readonly timeoutMs: number,
    private readonly maxBytes: number,
    private readonly started: number,
  ) {
    this.timer = setTimeout(onExchangeTimeout, timeoutMs, this);
  }

  /** The failure, once; the timer never outlives the outcome and the exchange is aborted. */
  fail(err: OutboundError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.abort) this.abort(err);
    else this.failedEarly = err;
    this.reject(err);
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    if (this.failedEarly) abort(this.failedEarly);
  }

  onHeaders(statusCode: number, raw: Buffer[]): boolean {
    if (this.settled) return false;
    this.status = statusCode;
    this.rawHeaders = raw;
    const declared = Number(headerOf(raw, 'content-length'));
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      this.fail(tooLarge(this.maxBytes));
      return false;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.fail(tooLarge(this.maxBytes));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const chunks = this.chunks;
    this.resolve(
      new Answer(
        this.status,
        this.rawHeaders,
        chunks.length === 0
          ? ''
          : chunks.length === 1
            ? chunks[0].toString('utf8')
            : Buffer.concat(chunks).toString('utf8'),
        Math.round(performance.now() - this.started),
      ),
    );
  }

  onError(err: Error): void {
    if (err instanceof OutboundError) return this.fail(err);
    const e = err as Error & { code?: string; cause?: unknown };
    // The address check fails inside the connect; undici may hand it over as the cause.
    if (e.cause instanceof OutboundError) return this.fail(e.cause);
    // Header values are validated before anything is sent (e.g. a CR/LF in a configured value).
    if (e.code === 'UND_ERR_INVALID_ARG') return this.fail(new OutboundError(e.message, 'invalid_request'));
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
      return this.fail(timedOut(this.timeoutMs));
    this.fail(new OutboundError(e.message || String(err), 'network'));
  }
}

/** An answer; its headers are parsed only if a caller reads them (webhook delivery never does). */
class Answer implements OutboundResponse {
  private parsed: http.IncomingHttpHeaders | undefined;

  constructor(
    readonly status: number,
    private readonly rawHeaders: Buffer[],
    readonly body: string,
    readonly durationMs: number,
  ) {}

  get headers(): http.IncomingHttpHeaders {
    this.parsed ??= util.parseHeaders(this.rawHeaders) as http.IncomingHttpHeaders;
    return this.parsed;
  }
}

/** A header's value from undici's raw list (name, value, name, value, …), or undefined. */
function headerOf(raw: Buffer[], name: string): string | undefined {
  for (let i = 0; i < raw.length - 1; i += 2) {
    const key = raw[i];
    if (key.length === name.length && key.toString('latin1').toLowerCase() === name)
      return raw[i + 1].toString('latin1');
  }
  return undefined;
}
