import http from 'node:http';
import os from 'node:os';
import { answerFromPageCache, pageCacheKey } from './page-cache';

/**
 * Buy pages rendered at once by this process (issue 34). A page is ~35–60 ms of CPU (React's render and its
 * payload); a rush of fans all rendered at once share the CPU and every one of them waits for all the
 * others (200 pages × 60 ms on a core: each answer after ~12 s, none sooner), with 200 render trees in
 * memory for the garbage collector. Past this many, a page waits its turn in arrival order instead, and a
 * fan who leaves while waiting costs nothing. The limit is generous, so the buy page keeps most of the CPU
 * beside the partner API's calls, which are not gated.
 */
const PAGES_AT_ONCE = Math.max(32, os.availableParallelism() * 16);

/** The fan pages gated: the buy page, the one a rush arrives on. */
const GATED = /^\/market\//;

const g = globalThis as typeof globalThis & { __encoreRenderGate?: { running: number; waiting: number } };

/** The gate's state, for tests and metrics: pages rendering and pages waiting. */
export function renderGate(): { running: number; waiting: number } {
  return { running: g.__encoreRenderGate?.running ?? 0, waiting: g.__encoreRenderGate?.waiting ?? 0 };
}

/**
 * Puts the gate in front of every HTTP server of this process (Next.js's own, which `next start` makes
 * before instrumentation runs): a GET of a gated path is handed to the server only when fewer than
 * `limit` are in progress, else queued; one is done when its response closes (sent, or the fan gone).
 * Before the gate, an anonymous fan's buy page is answered from the page shared by its address when there
 * is one (page-cache.ts); only renders queue here.
 */
export function installRenderGate(limit = PAGES_AT_ONCE): void {
  if (g.__encoreRenderGate) return;
  const state = { running: 0, waiting: 0 };
  g.__encoreRenderGate = state;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) {
      state.waiting--;
      next();
    } else state.running--;
  };
  type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  const emit = http.Server.prototype.emit as Emit;
  http.Server.prototype.emit = function gatedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (req.method !== 'GET' || !GATED.test(req.url ?? '')) return emit.call(this, event, ...args);
    // An anonymous fan's buy page may be answered from the page shared by its address (page-cache.ts):
    // only a render takes a place at the gate.
    const key = pageCacheKey(req);
    if (key) {
      answerFromPageCache(key, req, res, () => gate(this, req, res));
      return true;
    }
    gate(this, req, res);
    return true;
  } as typeof http.Server.prototype.emit;

  /** Hands the request to the server now if fewer than `limit` pages are in progress, else in its turn. */
  function gate(server: http.Server, req: http.IncomingMessage, res: http.ServerResponse): void {
    const start = () => {
      res.once('close', release);
      emit.call(server, 'request', req, res);
    };
    if (state.running < limit) {
      state.running++;
      start();
      return;
    }
    queue.push(start);
    state.waiting++;
    // A fan who leaves while waiting is taken out of the queue.
    res.once('close', () => {
      const i = queue.indexOf(start);
      if (i >= 0) {
        queue.splice(i, 1);
        state.waiting--;
      }
    });
  }
}
