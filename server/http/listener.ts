import type http from 'node:http';
import { setClientAddress } from './client-address';
import { type RenderGate, renderGate } from './render-gate';
import { sharedPageAddress } from './shared-page';
import { sharedPages, takeFillMark } from './shared-pages';

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
  /** The version of the shared page at a canonical address, as a render now would stamp it (shared-pages.ts). */
  pageVersion?: (path: string) => Promise<string | null>;
  /** The build's id (part of a shared page's ETag). */
  buildId?: string;
}

/**
 * Encore's HTTP server's one request listener (server/start.ts), in front of Next.js — the supported place
 * for what Next.js cannot do from inside (issue 45; nothing of Node.js is patched):
 * 1. the client's address, from the socket and the trusted proxies only (client-address.ts);
 * 2. an anonymous fan's buy page answered as a shared page (shared-pages.ts), by its canonical address;
 * 3. the render gate for buy pages rendered for one fan, and for the shared pages' own renders (render-gate.ts).
 */
export function encoreListener(options: ListenerOptions): http.RequestListener {
  const gate = options.gate ?? renderGate();
  const pages = sharedPages({
    port: options.port,
    keep: options.keepPages,
    version: options.pageVersion,
    buildId: options.buildId,
  });
  const render = (req: http.IncomingMessage, res: http.ServerResponse) =>
    gate.admit(req, res, () => void options.handle(req, res));
  return (req, res) => {
    // A fill is this process asking itself for a shared page: no one's page, so no client address.
    if (takeFillMark(req, pages.secret)) return render(req, res);
    setClientAddress(req, options.hops);
    const shared = sharedPageAddress({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
    });
    if (shared) return void pages.answer(req, res, shared);
    render(req, res);
  };
}
