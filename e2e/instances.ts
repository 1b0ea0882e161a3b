import { type ChildProcess, spawn } from 'node:child_process';
import { runningEmbeddedUrl } from '../db/embedded';

/**
 * More instances of the built app on the e2e server's database, started as `npm start` starts one
 * (`node --import tsx server/start.ts`), serving only: the e2e server works the jobs.
 */
export interface InstanceOptions {
  port: number;
  /** The address fans and partners reach it by (PUBLIC_BASE_URL, NEXTAUTH_URL). */
  publicUrl: string;
  /** The Node.js binary (default: the one running the tests). */
  node?: string;
  env?: Record<string, string>;
}

const started: ChildProcess[] = [];

/** Starts one instance; resolves when it answers /healthz, throws with its last output when it exits first. */
export async function startInstance({ port, publicUrl, node, env }: InstanceOptions): Promise<ChildProcess> {
  const database = process.env.DATABASE_URL ?? runningEmbeddedUrl(process.env.E2E_DATA_DIR ?? '');
  if (!database) throw new Error('the e2e server’s database is not running');
  const child = spawn(
    node ?? process.execPath,
    ['--import', 'tsx', 'server/start.ts', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        ...process.env,
        DATABASE_URL: database,
        DATA_DIR: '',
        JOBS_WORKER: '0',
        JOBS_SCHEDULES: '0',
        DEMO_PARTNER: '0',
        LOG_LEVEL: 'warn',
        PUBLIC_BASE_URL: publicUrl,
        NEXTAUTH_URL: publicUrl,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let output = '';
  child.stderr!.on('data', (b: Buffer) => (output = (output + b.toString()).slice(-4000)));
  started.push(child);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited: ${output}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops every instance this file started (SIGTERM), once each has exited. */
export async function stopInstances(): Promise<void> {
  await Promise.all(
    started.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
