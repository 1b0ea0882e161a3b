import type { AddressInfo } from 'node:net';

/**
 * `npm start`: Encore's HTTP server, with Next.js's request handler behind it (a Next.js custom server).
 * It is the supported place for what a request needs before Next.js sees it — the client's address from
 * the socket, the shared buy page, the render gate (server/http/listener.ts) — so nothing of Node.js's own
 * http.Server is patched. Takes `next start`'s options: `-p`/`--port` (or
 * PORT, default 3000) and `-H`/`--hostname` (default every interface; not HOSTNAME, which shells and
 * containers set to the machine's name).
 *
 * SIGTERM and SIGINT stop it gracefully: no new connections, requests in flight finish (10 s at most),
 * then the process exits through server/shutdown.ts, which first finishes the running jobs.
 *
 * Only Node.js's own modules are imported before NODE_ENV is set: a package loaded earlier (React, through
 * anything of the app) would pick its development build, and Next.js's server code its production one.
 */

function option(short: string, long: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === short || args[i] === long) return args[i + 1];
    if (args[i].startsWith(`${long}=`)) return args[i].slice(long.length + 1);
  }
  return undefined;
}

const port = Number(option('-p', '--port') ?? process.env.PORT ?? 3000);
const hostname = option('-H', '--hostname');
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`Encore: the port must be a number from 0 to 65535 (got ${option('-p', '--port')}).\n`);
  process.exit(1);
}

// Next.js and React read NODE_ENV when they load; production unless said otherwise (as `next start` does).
(process.env as Record<string, string>).NODE_ENV ??= 'production';
process.env.PORT = String(port);
const { SERVER_ENTRY } = await import('./server-entry');
(globalThis as Record<symbol, unknown>)[SERVER_ENTRY] = true;
const { default: next } = await import('next');
const { env } = await import('./env');
const { encoreListener, encoreServer } = await import('./http/listener');
const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
const handle = app.getRequestHandler();
// Loads the build and runs instrumentation.ts (database, migrations, jobs) before the first request.
await app.prepare();

// A shared page's version is read from its model (the app's own code and database, loaded here once the app
// is prepared): a cache revalidating a page gets a 304 instead of a render while the page would not change.
const { getDb } = await import('@/db');
const { buyPageVersionAt, seatMapDocument } = await import('./modules/fan-pages');
const { readFileSync } = await import('node:fs');
const { join } = await import('node:path');
const buildId = readFileSync(join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'), 'utf8').trim();

// Encore's responses: a page Next.js fails during a database outage is the outage page (listener.ts).
const server = encoreServer();
const listener = encoreListener({
  handle: (req, res) => handle(req, res),
  hops: env().TRUSTED_PROXY_HOPS,
  keepPages: !env().EDGE_CACHE,
  port: () => (server.address() as AddressInfo).port,
  pageVersion: (path) => buyPageVersionAt(path, getDb()),
  buildId,
  seatMap: (url) => seatMapDocument(url, getDb()),
});
server.on('request', listener);
// Longer than a proxy's idle keep-alive (nginx keeps upstream connections 60 s): the proxy closes first,
// never reusing a connection this side has just closed.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, hostname, () => {
  const { address, port: bound } = server.address() as AddressInfo;
  process.stdout.write(`Encore ready on http://${hostname ?? (address === '::' ? 'localhost' : address)}:${bound}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
}
