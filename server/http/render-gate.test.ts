import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGate } from './render-gate';

/*
 * The buy page's render gate over a real HTTP server: past the limit, buy pages wait in arrival order;
 * other paths never wait; a fan who leaves while waiting is taken out of the queue.
 */

const LIMIT = 2;
let server: http.Server;
let base: string;
let inFlight = 0;
let most = 0;
const order: string[] = [];
const hold = new Map<string, () => void>();

const gate = renderGate(LIMIT);

beforeAll(async () => {
  // As Encore's server calls it (server/http/listener.ts): the gate in front of the request handler.
  server = http.createServer((req, res) =>
    gate.admit(req, res, () => {
      inFlight++;
      most = Math.max(most, inFlight);
      order.push(req.url!);
      const done = () => {
        inFlight--;
        res.end('ok');
      };
      if (req.url!.startsWith('/market/')) hold.set(req.url!, done);
      else done();
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function until(ok: () => boolean) {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

describe('render gate', () => {
  it('renders at most the limit of buy pages at once, the rest in arrival order; other paths pass', async () => {
    const pages = ['/market/1', '/market/2', '/market/3', '/market/4'];
    const answers: Promise<Response>[] = [];
    for (const p of pages) {
      answers.push(fetch(`${base}${p}`));
      // Each request reaches the server (rendering or queued) before the next is sent.
      await until(() => order.includes(p) || gate.state().waiting === answers.length - LIMIT);
    }
    expect(order).toEqual(['/market/1', '/market/2']);
    expect(gate.state()).toEqual({ running: LIMIT, waiting: 2 });
    // Another path is not held behind the pages.
    expect(await (await fetch(`${base}/v1/me`)).text()).toBe('ok');
    hold.get('/market/2')!();
    await until(() => hold.has('/market/3'));
    hold.get('/market/1')!();
    await until(() => hold.has('/market/4'));
    expect(order.filter((u) => u.startsWith('/market/'))).toEqual(pages);
    hold.get('/market/3')!();
    hold.get('/market/4')!();
    for (const a of answers) expect(await (await a).text()).toBe('ok');
    expect(most).toBeLessThanOrEqual(LIMIT + 1); // the pages, and the one /v1 call beside them
    await until(() => gate.state().running === 0);
    expect(gate.state()).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a fan who leaves while waiting', async () => {
    hold.clear();
    order.length = 0;
    const first = [fetch(`${base}/market/a`), fetch(`${base}/market/b`)];
    await until(() => hold.size === LIMIT);
    const leaving = new AbortController();
    const gone = fetch(`${base}/market/gone`, { signal: leaving.signal }).catch(() => null);
    await until(() => gate.state().waiting === 1);
    leaving.abort();
    await gone;
    await until(() => gate.state().waiting === 0);
    hold.get('/market/a')!();
    hold.get('/market/b')!();
    for (const a of first) expect(await (await a).text()).toBe('ok');
    expect(order).not.toContain('/market/gone');
    await until(() => gate.state().running === 0);
  });
});
