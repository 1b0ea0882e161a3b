import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

type Reply = number | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP server on loopback standing in for a partner's webhook receiver. It answers from a
 * queue of replies (then `fallback`), records every request, and can be closed and reopened on the
 * same port to simulate an outage.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private replies: Reply[] = [];
  fallback: Reply = 200;
  private server?: http.Server;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const reply = this.replies.shift() ?? this.fallback;
        const r = typeof reply === 'number' ? { status: reply } : reply;
        const answer = () => {
          res.writeHead(r.status, { 'content-type': 'text/plain', ...r.headers });
          res.end(r.body ?? `status ${r.status}`);
        };
        if (r.delayMs) setTimeout(answer, r.delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Next answers, in order; after them, `fallback`. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Bodies received, parsed. */
  bodies(): { family: string; action: string; data: Record<string, unknown> }[] {
    return this.requests.map((r) => JSON.parse(r.body));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
