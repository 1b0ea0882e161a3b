/**
 * The webhook receiver of the webhook-delivery bench, run by servers.ts as its own process (a
 * partner's receiver never shares the app's CPU): answers every POST with 204 and counts them;
 * `GET /count` answers the count, `GET /ready` 200. Env: RECEIVER_PORT.
 */
import http from 'node:http';

let received = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/count' ? String(received) : 'ok');
    return;
  }
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.RECEIVER_PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
