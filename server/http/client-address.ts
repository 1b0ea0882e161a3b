import type http from 'node:http';

/**
 * The header every request carries, set by this process from the socket it arrived on: the client's
 * address as far as Encore can trust it. Route handlers and server actions cannot see the socket (Next.js
 * hides it), and `X-Forwarded-For` is whatever the client wrote unless a proxy of ours rewrote it. So
 * Encore's own HTTP server (server/start.ts), before Next.js sees the request, drops any value a client
 * sent under this name and writes the address picked by `clientAddressFor` (`setClientAddress`).
 */
export const CLIENT_ADDRESS_HEADER = 'x-encore-client-address';

/**
 * The client's address, given the proxies in front of Encore. The chain is `X-Forwarded-For`'s entries
 * followed by the socket's peer; each trusted proxy appended the address it was called from. With no
 * trusted proxy (the default) the socket's peer is the client, whatever the headers say; with `hops`
 * trusted proxies it is the entry `hops` places before the peer. Entries further left were written by the
 * client (or by proxies we do not know) and are never used. A chain shorter than expected (a request that
 * reached us around the proxy) yields its leftmost entry the proxies could have written: the first one.
 */
export function clientAddressFor(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  hops: number,
): string | null {
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = peer ? [...forwarded, peer] : forwarded;
  if (!chain.length) return null;
  return normalise(chain[Math.max(0, chain.length - 1 - hops)]);
}

/** IPv4 addresses as IPv6-mapped (`::ffff:10.0.0.1`) count as the plain IPv4 address; one client, one bucket. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * Writes the header on a request as Encore's own HTTP server receives it (server/start.ts), before Next.js
 * sees it: any value the client sent under this name is dropped, and the address `clientAddressFor` picks
 * from the socket and the trusted proxies' X-Forwarded-For is written instead.
 */
export function setClientAddress(req: http.IncomingMessage, hops: number): void {
  delete req.headers[CLIENT_ADDRESS_HEADER];
  const address = clientAddressFor(req.socket?.remoteAddress, req.headers['x-forwarded-for'], hops);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
}

/** The trusted client address of a request that went through this process's server; null when unknown. */
export function clientAddressOf(
  headers: { get(name: string): string | null } | Record<string, unknown> | undefined,
): string | null {
  if (!headers) return null;
  const value =
    typeof headers.get === 'function'
      ? (headers as { get(name: string): string | null }).get(CLIENT_ADDRESS_HEADER)
      : (headers as Record<string, unknown>)[CLIENT_ADDRESS_HEADER];
  return typeof value === 'string' && value ? value : null;
}
