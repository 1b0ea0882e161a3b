import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connects, freePort } from './ports';

/**
 * The reference edge (edge/nginx.conf, Debian's nginx) as a child process, for the tests and the benches:
 * the template rendered into a fresh temporary prefix (pid, logs, temp files, cache, the render hop's
 * socket: nothing outside it is written), nginx run in the foreground, stopped and its prefix removed by
 * `stop()`. Exactly the file a deployment uses, so what the tests show holds for it.
 */

const TEMPLATE = path.join(process.cwd(), 'edge', 'nginx.conf');
/** The edge's njs code, beside the template. */
const EDGE_JS = path.join(process.cwd(), 'edge', 'edge.js');
/** Where Debian's nginx keeps its dynamic modules (libnginx-mod-http-js puts njs there). */
const DEBIAN_MODULES = '/usr/lib/nginx/modules';

/**
 * `host:port` or `[v6]:port`, perhaps followed by ` backup` (asked only when the others fail): anything else
 * could write other directives into the configuration.
 */
const UPSTREAM = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}(?: backup)?$/;

/** A unix socket's path must fit sockaddr_un (108 bytes with the final NUL). */
const MAX_SOCKET_PATH = 100;

export interface EdgeConfigValues {
  /** What nginx listens on, e.g. `127.0.0.1:8080`. */
  listen: string;
  /** The Encore instances, `host:port` each. */
  upstreams: string[];
  /** The instances answering the partners' API (/v1/); `upstreams` when not given. */
  apiUpstreams?: string[];
  /** The edge's own directory (absolute). */
  prefix: string;
  /** More locations for the edge's server, written after its `listen` (the bench's static-file baseline). */
  extraLocations?: string;
  /** nginx's modules directory: NGINX_MODULES_PATH when not given, else Debian's. */
  modules?: string;
}

/** edge/nginx.conf with its placeholders replaced, as nginx will read it. */
export function renderEdgeConfig(values: EdgeConfigValues): string {
  const apiUpstreams = values.apiUpstreams ?? values.upstreams;
  if (!values.upstreams.length || !apiUpstreams.length) throw new Error('the edge needs at least one upstream');
  for (const upstream of [...values.upstreams, ...apiUpstreams]) {
    if (!UPSTREAM.test(upstream)) throw new Error(`an upstream is host:port, not ${JSON.stringify(upstream)}`);
  }
  if (!/^\/[\w./-]*$/.test(values.prefix))
    throw new Error(`the prefix must be a plain absolute path: ${values.prefix}`);
  if (path.join(values.prefix, 'render.sock').length > MAX_SOCKET_PATH) {
    throw new Error(`the prefix is too long for a unix socket path: ${values.prefix}`);
  }
  if (!/^[\w.:[\] ]+$/.test(values.listen)) throw new Error(`unexpected listen value ${JSON.stringify(values.listen)}`);
  const modules = (values.modules ?? process.env.NGINX_MODULES_PATH ?? DEBIAN_MODULES).replace(/\/$/, '');
  for (const file of [modules, EDGE_JS]) {
    if (!/^\/[\w./-]*$/.test(file)) throw new Error(`not a plain absolute path: ${file}`);
  }
  // Placeholders are filled in directives only: the comments name them too.
  const text = fs
    .readFileSync(TEMPLATE, 'utf8')
    .split('\n')
    .map((line) => {
      if (line.trimStart().startsWith('#')) return line;
      const indent = /^\s*/.exec(line)![0];
      const filled = line
        .replaceAll('{{LISTEN}}', values.listen)
        .replaceAll('{{UPSTREAMS}}', values.upstreams.map((u) => `server ${u};`).join(`\n${indent}`))
        .replaceAll('{{API_UPSTREAMS}}', apiUpstreams.map((u) => `server ${u};`).join(`\n${indent}`))
        .replaceAll('{{PREFIX}}', values.prefix.replace(/\/$/, ''))
        .replaceAll('{{NGINX_MODULES}}', modules)
        .replaceAll('{{EDGE_JS}}', EDGE_JS);
      return values.extraLocations && /^\s*listen \{\{LISTEN\}\};/.test(line)
        ? `${filled}\n${indent}${values.extraLocations}`
        : filled;
    })
    .join('\n');
  const left = /^[^#\n]*(\{\{\w+\}\})/m.exec(text);
  if (left) throw new Error(`edge/nginx.conf has a placeholder renderEdgeConfig does not fill: ${left[1]}`);
  return text;
}

export interface Edge {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Where the edge keeps its cache entries (under its prefix). */
  cacheDir: string;
  /** Stops nginx (gracefully, then by force), waits for it to exit and removes its prefix. */
  stop(): Promise<void>;
}

/** The nginx binary: NGINX_PATH, else the one on the PATH, else Debian's (/usr/sbin is not on every PATH). */
function nginxBinary(): string {
  const candidates = process.env.NGINX_PATH ? [process.env.NGINX_PATH] : ['nginx', '/usr/sbin/nginx'];
  for (const candidate of candidates) {
    if (!spawnSync(candidate, ['-v'], { stdio: 'ignore' }).error) return candidate;
  }
  throw new Error(
    `nginx not found (${process.env.NGINX_PATH ? `NGINX_PATH=${process.env.NGINX_PATH}` : 'on the PATH nor in /usr/sbin'}): run .ci/ensure-nginx.sh`,
  );
}

/** Edges still running, stopped by force if the process exits without stopping them (no orphan nginx). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killRunningOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

const STARTUP_MS = 15_000;
const GRACEFUL_STOP_MS = 3_000;

/** One try at starting nginx on `port`; rejects with its output when it exits or does not answer in time. */
async function launch(
  binary: string,
  prefix: string,
  port: number,
  options: Pick<EdgeConfigValues, 'upstreams' | 'apiUpstreams' | 'extraLocations'>,
): Promise<ChildProcess> {
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, renderEdgeConfig({ ...options, listen: `127.0.0.1:${port}`, prefix }));
  // Its own process group, so that a last-resort kill takes its workers too.
  const child = spawn(binary, ['-p', `${prefix}/`, '-c', conf, '-g', 'daemon off;'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  killRunningOnExit();
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = signal ?? String(code);
    running.delete(child);
  });
  child.once('error', (error) => {
    exited = error.message;
    running.delete(child);
  });
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    if (exited !== undefined) {
      throw new Error(`nginx exited (${exited}) before it answered:\n${output}${errorLog(prefix)}`);
    }
    if (await connects(port)) return child;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(
        `nginx did not answer on port ${port} within ${STARTUP_MS / 1000} s:\n${output}${errorLog(prefix)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function errorLog(prefix: string): string {
  try {
    return fs.readFileSync(path.join(prefix, 'error.log'), 'utf8').slice(-4000);
  } catch {
    return '';
  }
}

/** SIGQUIT (finish the requests in flight), then SIGTERM, then SIGKILL to the group; resolves once it exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const within = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
  child.kill('SIGQUIT');
  if (await within(GRACEFUL_STOP_MS)) return;
  child.kill('SIGTERM');
  if (await within(GRACEFUL_STOP_MS)) return;
  if (child.pid) process.kill(-child.pid, 'SIGKILL');
  await exited;
}

/**
 * Starts the reference edge in front of `upstreams` (`host:port` each) on 127.0.0.1:`port` (a free one when
 * not given) and resolves once it accepts connections. Fails, with nginx's own words, when nginx is
 * missing (run .ci/ensure-nginx.sh), the configuration is refused or the port is taken.
 */
export async function startEdge(options: {
  upstreams: string[];
  apiUpstreams?: string[];
  port?: number;
  extraLocations?: string;
}): Promise<Edge> {
  const binary = nginxBinary();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'encore-edge-'));
  // Started by root, nginx's workers run as `nobody`: they must reach the cache and the socket in here.
  fs.chmodSync(prefix, 0o755);
  try {
    // A free port found by the OS may be taken before nginx binds it: a few tries, unless it was chosen.
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      try {
        const child = await launch(binary, prefix, port, options);
        let stopped: Promise<void> | undefined;
        return {
          url: `http://127.0.0.1:${port}`,
          port,
          cacheDir: path.join(prefix, 'cache'),
          stop: () => (stopped ??= stopChild(child).then(() => fs.rmSync(prefix, { recursive: true, force: true }))),
        };
      } catch (error) {
        const taken = /Address already in use/.test(String(error));
        if (!taken || options.port !== undefined || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    fs.rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The shared buy pages the instances behind an edge have rendered so far, summed from their /metrics
 * (`encore_shared_page_renders_total`; METRICS_TOKEN opens it): how the tests and the bench count renders.
 * `unchanged`: the pages kept without a render instead (`encore_shared_pages_unchanged_total`: 304s).
 */
export async function sharedPageRenders(
  bases: string[],
  metricsToken: string,
  counter: 'renders' | 'unchanged' = 'renders',
): Promise<number> {
  const name = counter === 'renders' ? 'encore_shared_page_renders_total' : 'encore_shared_pages_unchanged_total';
  let total = 0;
  for (const base of bases) {
    const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    total += Number(new RegExp(`^${name} (\\d+)`, 'm').exec(await answer.text())?.[1]);
  }
  return total;
}
