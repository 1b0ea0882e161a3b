import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encoreListener, type ListenerOptions } from '@/server/http/listener';

/**
 * Encore's HTTP server's listener on a loopback port, with a stand-in for Next.js that answers `next` and
 * records each address that reached it.
 */
export async function listenerWithStandIn(options: Pick<ListenerOptions, 'seatMap'> = {}) {
  const asked: string[] = [];
  const server: http.Server = http.createServer(
    encoreListener({
      handle: (req, res) => {
        asked.push(req.url!);
        res.end('next');
      },
      hops: 0,
      keepPages: false,
      port: (): number => (server.address() as AddressInfo).port,
      ...options,
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
