import type http from 'node:http';
import os from 'node:os';

/**
 * Buy pages rendered at once by this process. A page is ~35–60 ms of CPU (React's render and its
 * payload); a rush of fans all rendered at once share the CPU and every one of them waits for all the
 * others (200 pages × 60 ms on a core: each answer after ~12 s, none sooner), with 200 render trees in
 * memory for the garbage collector. Past this many, a page waits its turn in arrival order instead, and a
 * fan who leaves while waiting costs nothing. The limit is generous, so the buy page keeps most of the CPU
 * beside the partner API's calls, which are not gated.
 */
const PAGES_AT_ONCE = Math.max(32, os.availableParallelism() * 16);

/** The fan pages gated: the buy page, the one a rush arrives on. */
const GATED = /^\/market\//;

export interface RenderGate {
  /**
   * Runs `render` for a GET of a gated path when fewer than the limit are in progress, else in its turn;
   * one is done when its response closes (sent, or the fan gone). Anything else runs at once.
   */
  admit(req: http.IncomingMessage, res: http.ServerResponse, render: () => void): void;
  /** Pages rendering and pages waiting, for tests and metrics. */
  state(): { running: number; waiting: number };
}

/**
 * The gate in front of Next.js's request handler, called by Encore's own HTTP server (server/start.ts) for
 * every request: admission control in the place a server owns, not inside Node.js's internals.
 */
export function renderGate(limit = PAGES_AT_ONCE): RenderGate {
  const state = { running: 0, waiting: 0 };
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) {
      state.waiting--;
      next();
    } else state.running--;
  };
  return {
    state: () => ({ ...state }),
    admit(req, res, render) {
      if (req.method !== 'GET' || !GATED.test(req.url ?? '')) return render();
      const start = () => {
        res.once('close', release);
        render();
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
    },
  };
}
