import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

const run = promisify(execFile);
const TSX = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
const dirs: string[] = [];
const scratch = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'encore-embedded-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function pidOf(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}
/** Running, and not a zombie (an orphan nobody reaped yet has exited all the same). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
async function rows(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql<{ note: string }[]>`select note from survivor order by note`).map((r) => r.note);
  } finally {
    await sql.end();
  }
}

/** Starts the child that owns the server, waits for READY, then SIGKILLs it. */
async function crashAfterWriting(dataDir: string, note: string): Promise<void> {
  // node with the tsx loader (not the tsx CLI, which forks): SIGKILL must hit the owner itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/embedded-child.ts', dataDir, note], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited early with ${code}: ${stderr}`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

describe('embedded PostgreSQL lifecycle', () => {
  it('keeps data across a SIGKILLed owner, attaches to or restarts the leftover server, and stops cleanly', async () => {
    const dir = scratch();
    await crashAfterWriting(dir, 'a: before the crash');
    const leftover = pidOf(dir);
    expect(alive(leftover)).toBe(true); // the crashed app left its server running

    // A short-lived tool attaches to it as is.
    const attached = await startEmbeddedPostgres({ dataDir: dir, mode: 'attach' });
    expect(attached.owned).toBe(false);
    expect(await rows(attached.url)).toEqual(['a: before the crash']);

    // The app restarts it under its own control; the data is still there.
    const owned = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    expect(owned.owned).toBe(true);
    expect(alive(leftover)).toBe(false);
    expect(await rows(owned.url)).toEqual(['a: before the crash']);
    const pid = pidOf(dir);
    await owned.stop();
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);

    // Once more: a second crash and a clean start after it.
    await crashAfterWriting(dir, 'b: second crash');
    const again = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    expect(await rows(again.url)).toEqual(['a: before the crash', 'b: second crash']);
    await again.stop();
  });

  it('starts over a stale postmaster.pid whose process is gone', async () => {
    const dir = scratch();
    const first = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    await first.stop();
    const stale = [999999, path.join(dir, 'pg'), '0', String(first.port), '', '127.0.0.1', '0 0', 'ready', ''].join(
      '\n',
    );
    fs.writeFileSync(path.join(dir, 'pg', 'postmaster.pid'), stale);
    const second = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    const sql = postgres(second.url, { max: 1 });
    expect((await sql`select 1 as one`)[0].one).toBe(1);
    await sql.end();
    await second.stop();
  });

  it('lets partner:create work beside a running app and print one JSON line with working keys', async () => {
    const dir = scratch();
    const app = await startEmbeddedPostgres({ dataDir: dir, mode: 'own' });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
      delete env.DATABASE_URL;
      const { stdout } = await run(TSX, ['server/cli/partner-create.ts', '--name', 'CLI Partner'], { env });
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const out = JSON.parse(lines[0]);
      expect(out).toEqual({
        partnerId: expect.stringMatching(/^ptr_/),
        apiKey: expect.stringMatching(/^sk_live_/),
        channelsApiKey: expect.stringMatching(/^sk_ch_/),
        testPartnerId: expect.stringMatching(/^ptr_/),
        testApiKey: expect.stringMatching(/^sk_test_/),
        testChannelsApiKey: expect.stringMatching(/^sk_test_ch_/),
        publishableKey: expect.stringMatching(/^pk_live_[A-Za-z0-9]{32}$/),
        testPublishableKey: expect.stringMatching(/^pk_test_[A-Za-z0-9]{32}$/),
      });
      // The app's server is still the one running, and holds the new partner and its test twin.
      expect(alive(pidOf(dir))).toBe(true);
      const sql = postgres(app.url, { max: 1 });
      const [row] = await sql`select name from partners where id = ${out.partnerId}`;
      const [twin] = await sql`select name, mode, live_partner_id from partners where id = ${out.testPartnerId}`;
      await sql.end();
      expect(row.name).toBe('CLI Partner');
      expect(twin).toEqual({ name: 'CLI Partner', mode: 'test', live_partner_id: out.partnerId });
    } finally {
      await app.stop();
    }
  });

  it('refuses partner:create without a name, with usage on stderr and exit code 2', async () => {
    const err = await run(TSX, ['server/cli/partner-create.ts'], { env: { ...process.env } }).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('--name is required');
  });
});
