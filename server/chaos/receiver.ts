import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The partner's webhook receiver for the chaos run: a real HTTP server on loopback that answers 204, after
 * `delayMs` when told to (so that deliveries are in flight when an instance is killed), and remembers per
 * message (`webhook-id`) when it was first sent, whether a sender went away before the answer (the killed
 * instance's connections), and when it was answered. The fake partner of the tests (server/testing/
 * fake-partner.ts) answers every path alike; a delay on this path alone is what the kill needs.
 */
export class WebhookReceiver {
  delayMs = 0;
  readonly messages = new Map<string, { firstAt: number; abortedAt?: number; deliveredAt?: number }>();
  private readonly open = new Set<http.ServerResponse>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** The client ports of the deliveries waiting for their answer now. */
  inFlightPorts(): number[] {
    return [...this.open].map((res) => res.req.socket.remotePort ?? 0).filter(Boolean);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const id = String(req.headers['webhook-id'] ?? '');
    const seen = this.messages.get(id) ?? { firstAt: Date.now() };
    this.messages.set(id, seen);
    this.open.add(res);
    res.on('close', () => {
      this.open.delete(res);
      if (!res.writableFinished) seen.abortedAt ??= Date.now();
    });
    req.resume();
    req.on('end', () => {
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(204).end();
        seen.deliveredAt = Date.now();
      };
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    });
  }
}

/**
 * Which of `pids` holds the client end of each loopback connection whose local port is in `ports`
 * (Linux: /proc/net/tcp{,6} gives the socket's inode, /proc/<pid>/fd the process holding it). Answers the
 * count per pid; empty where /proc is not there.
 */
export function connectionHolders(ports: number[], pids: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  const inodes = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const port = parseInt(cols[1].split(':')[1] ?? '', 16);
      if (ports.includes(port)) inodes.set(cols[9], port);
    }
  }
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      const link = safeReadlink(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) counts.set(pid, (counts.get(pid) ?? 0) + 1);
    }
  }
  return counts;
}

function safeReadlink(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '';
  }
}
