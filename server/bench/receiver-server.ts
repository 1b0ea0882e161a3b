/**
 * The webhook receiver of the webhook-delivery bench, run by servers.ts as its own process (a
 * partner's receiver never shares the app's CPU): answers every POST with 204 and counts them;
 * `GET /count` answers the count at once, `GET /count?atLeast=N` once the count reaches N (so the bench
 * waits for a run's last delivery with one request, not by polling while delivery is under way),
 * `GET /ready` 200. Env: RECEIVER_PORT.
 */
import http from 'node:http';

let received = 0;
/** Waiting `atLeast` requests, answered as the count reaches theirs. */
let waiters: { atLeast: number; res: http.ServerResponse }[] = [];

function answer(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain' }).end(String(received));
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== '/count') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const atLeast = Number(url.searchParams.get('atLeast') ?? 0);
    if (received >= atLeast) answer(res);
    else waiters.push({ atLeast, res });
    return;
  }
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
    if (waiters.length && waiters.some((w) => received >= w.atLeast)) {
      for (const w of waiters) if (received >= w.atLeast) answer(w.res);
      waiters = waiters.filter((w) => received < w.atLeast);
    }
  });
});
server.keepAliveTimeout = 30_000;
// A waiting request may outlast the default request timeout on a slow machine.
server.requestTimeout = 0;
server.listen(Number(process.env.RECEIVER_PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
