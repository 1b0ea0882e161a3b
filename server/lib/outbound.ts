import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { env } from '@/server/env';
import type { ErrorDetail } from './errors';

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

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  httpPrivate: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  httpsPrivate: new https.Agent({ keepAlive: true, maxSockets: 64 }),
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

/** One request to a partner URL. Resolves for any HTTP status; rejects with OutboundError otherwise. */
export function partnerRequest(rawUrl: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
  let url: URL;
  const privateOk = allowPrivate(req);
  try {
    url = checkPartnerUrl(rawUrl, { allowPrivate: privateOk });
  } catch (err) {
    return Promise.reject(err);
  }
  const timeoutMs = req.timeoutMs ?? 10_000;
  const maxBytes = req.maxResponseBytes ?? 1024 * 1024;
  const isHttps = url.protocol === 'https:';
  const mod = isHttps ? https : http;
  const agent = isHttps
    ? privateOk
      ? agents.httpsPrivate
      : agents.https
    : privateOk
      ? agents.httpPrivate
      : agents.http;
  const started = performance.now();

  return new Promise((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    // Exactly one outcome; the timer never outlives it and the socket is dropped on any failure.
    const fail = (err: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      reject(err);
    };
    const succeed = (res: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(res);
    };
    const timer = setTimeout(
      () => fail(new OutboundError(`No complete answer within ${timeoutMs} ms`, 'timeout')),
      timeoutMs,
    );
    try {
      request = mod.request(
        url,
        {
          method: req.method ?? 'GET',
          agent,
          lookup: guardedLookup(privateOk),
          headers: {
            'user-agent': 'Encore/1.0 (+partner integration)',
            ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}),
            ...req.headers,
          },
        },
        (res) => {
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            fail(new OutboundError(`Response larger than ${maxBytes} bytes`, 'too_large'));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              fail(new OutboundError(`Response larger than ${maxBytes} bytes`, 'too_large'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            succeed({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              durationMs: Math.round(performance.now() - started),
            }),
          );
          res.on('error', (err) => fail(new OutboundError(err.message, 'network')));
        },
      );
    } catch (err) {
      // Node validates headers synchronously (e.g. a CR/LF in a configured header value).
      fail(new OutboundError(err instanceof Error ? err.message : String(err), 'invalid_request'));
      return;
    }
    request.on('error', (err) => fail(err instanceof OutboundError ? err : new OutboundError(err.message, 'network')));
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}
