import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '@/server/testing/scratch-db';
import { backupDatabase, restoreDatabase } from './backup';

const run = promisify(execFile);

async function backupText(sql: postgres.Sql): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await backupDatabase(sql, out);
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

/** The backup without its header line (which carries the time it was taken). */
const body = (text: string) => text.slice(text.indexOf('\n') + 1);

// Text that COPY must escape: tab, newline, backslash, quotes, non-BMP characters.
const TRICKY = 'Line 1\n\tLine "2" \\ back\\slash — 🎫 ünïcødé';

describe('backup and restore', () => {
  let target: { url: string; drop: () => Promise<void> };
  let targetSql: postgres.Sql;
  let backup: string;
  let ref: string;

  let source: { url: string; drop: () => Promise<void> };
  let sourceSql: postgres.Sql;

  beforeAll(async () => {
    // A database of its own as the source, so the figures do not depend on what other test files left.
    source = await createScratchDatabase('backupsrc');
    sourceSql = postgres(source.url, { max: 2, onnotice: () => {} });
    ref = `BK-${Date.now()}`;
    await sourceSql`insert into partners (id, name) values ('ptr_backup', 'Backup partner')`;
    await sourceSql`insert into events (id, partner_id, external_reference_id, title, description, location, configuration)
      values ('evt_backup', 'ptr_backup', ${ref}, 'Event', ${TRICKY}, '{"city":"Lima"}', '{}')`;
    await sourceSql`insert into webhook_messages (id, partner_id, family, action, data)
      values ('msg_backup', 'ptr_backup', 'test', 'ping', '{"x":1}')`;
    for (let i = 1; i <= 3; i++) {
      await sourceSql`insert into webhook_attempts (message_id, partner_id, attempt_no, url, started_at, duration_ms, success)
        values ('msg_backup', 'ptr_backup', ${i}, 'http://r.test', now(), 5, false)`;
    }

    backup = await backupText(sourceSql);
    target = await createScratchDatabase('restore');
    targetSql = postgres(target.url, { max: 2, onnotice: () => {} });
  }, 180_000);

  afterAll(async () => {
    await targetSql?.end();
    await target?.drop();
    await sourceSql?.end();
    await source?.drop();
  });

  it('restores every row exactly: a backup of the restored database has the same content', async () => {
    await restoreDatabase(targetSql, Readable.from([backup]));
    expect(body(await backupText(targetSql))).toBe(body(backup));
    const [event] = await targetSql<{ description: string }[]>`
      select description from events where external_reference_id = ${ref}`;
    expect(event.description).toBe(TRICKY);
    const [attempts] = await targetSql<{ n: number }[]>`select count(*)::int as n from webhook_attempts`;
    expect(attempts.n).toBe(3);
  }, 120_000);

  it('moves serial sequences past the restored ids', async () => {
    const [{ max }] = await targetSql<{ max: number }[]>`select max(id)::int as max from webhook_attempts`;
    const [msg] = await targetSql<
      { id: string; partner_id: string }[]
    >`select id, partner_id from webhook_messages limit 1`;
    const [row] = await targetSql<{ id: number }[]>`
      insert into webhook_attempts (message_id, partner_id, attempt_no, url, started_at, duration_ms, success)
      values (${msg.id}, ${msg.partner_id}, 2, 'http://r.test', now(), 5, false) returning id::int`;
    expect(row.id).toBeGreaterThan(max);
  });

  it('refuses to overwrite a database with data unless told to, and then replaces it', async () => {
    await expect(restoreDatabase(targetSql, Readable.from([backup]))).rejects.toThrow(/already has data.*--replace/);
    await restoreDatabase(targetSql, Readable.from([backup]), { replace: true });
    expect(body(await backupText(targetSql))).toBe(body(backup));
  }, 120_000);

  it('refuses a file that is not a backup, a truncated one, and one from another migration level', async () => {
    await expect(restoreDatabase(targetSql, Readable.from(['hello\n']), { replace: true })).rejects.toThrow(
      /not an Encore backup/,
    );
    const cut = backup.slice(0, backup.indexOf('\\.\n'));
    await expect(restoreDatabase(targetSql, Readable.from([cut]), { replace: true })).rejects.toThrow(
      /ends inside table/,
    );
    // Nothing was lost by the refused restores (each runs in one transaction).
    expect(body(await backupText(targetSql))).toBe(body(backup));

    const header = JSON.parse(backup.slice('-- encore-backup '.length, backup.indexOf('\n'))) as {
      migrations: string[];
    };
    const older = backup.replace(JSON.stringify(header.migrations), JSON.stringify(header.migrations.slice(0, -1)));
    await expect(restoreDatabase(targetSql, Readable.from([older]), { replace: true })).rejects.toThrow(
      /taken at migration \d+, this database is at \d+/,
    );
  }, 120_000);

  it('the npm scripts write a gzip backup and restore it into an empty database', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'encore-backup-'));
    const fresh = await createScratchDatabase('restore2');
    try {
      const file = path.join(dir, 'b.sql.gz');
      const cli = (args: string[], url: string) =>
        run(process.execPath, ['--import', 'tsx', 'server/cli/db-backup.ts', ...args], {
          env: { ...process.env, DATABASE_URL: url },
        });
      const made = await cli(['backup', '--out', file], target.url);
      expect(made.stderr).toMatch(/backup: \d+ tables, \d+ rows/);
      expect(gunzipSync(readFileSync(file)).toString('utf8')).toContain(
        TRICKY.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\t', '\\t'),
      );
      await cli(['restore', '--in', file], fresh.url);
      const freshSql = postgres(fresh.url, { max: 1, onnotice: () => {} });
      try {
        expect(body(await backupText(freshSql))).toBe(body(await backupText(targetSql)));
      } finally {
        await freshSql.end();
      }
      await expect(cli(['restore'], fresh.url)).rejects.toMatchObject({ code: 2 });
    } finally {
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
