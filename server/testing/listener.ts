import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encoreListener, encoreServer, type ListenerOptions } from '@/server/http/listener';

/**
 * Encore's HTTP server's listener on a loopback port, with a stand-in for Next.js that answers `next` (or
 * as `handle` says) and records each address that reached it.
 */
export async function listenerWithStandIn(options: Partial<Pick<ListenerOptions, 'seatMap' | 'handle'>> = {}) {
  const asked: string[] = [];
  const server: http.Server = encoreServer(
    encoreListener({
      ...options,
      handle: (req, res) => {
        asked.push(req.url!);
        if (options.handle) return options.handle(req, res);
        res.end('next');
      },
      hops: 0,
      keepPages: false,
      port: (): number => (server.address() as AddressInfo).port,
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
