/**
 * `npm run db:backup -- --out backup.sql.gz` and `npm run db:restore -- --in backup.sql.gz [--replace]`.
 *
 * Like partner:create, these work with the app running or not: with DATABASE_URL they use that server;
 * otherwise they attach to the app's running embedded PostgreSQL, or start it for the command. A backup
 * is taken from one consistent snapshot while the app keeps serving; a restore should run with the app
 * stopped. A name ending in `.gz` is gzip-compressed.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { backupDatabase, RestoreError, restoreDatabase } from '@/db/backup';
import { closeDb, getSql } from '@/db';
import { prepareDatabase } from '@/server/boot';
import { EnvError } from '@/server/env';

process.env.LOG_LEVEL = 'error';

const USAGE = 'usage: npm run db:backup -- --out FILE[.gz]\n       npm run db:restore -- --in FILE[.gz] [--replace]\n';

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, in: { type: 'string' }, replace: { type: 'boolean', default: false } },
    strict: true,
  });
  if (
    (command === 'backup' && !values.out) ||
    (command === 'restore' && !values.in) ||
    !['backup', 'restore'].includes(command)
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  const db = await prepareDatabase('attach');
  try {
    let counts: Record<string, number>;
    if (command === 'backup') {
      const file = values.out!;
      const fileStream = createWriteStream(file, { flags: 'wx' });
      const out: Writable = file.endsWith('.gz') ? createGzip() : fileStream;
      if (out !== fileStream) out.pipe(fileStream);
      counts = await backupDatabase(getSql(), out);
      out.end();
      await once(fileStream, 'close');
    } else {
      const file = values.in!;
      const fileStream = createReadStream(file);
      const input: Readable = file.endsWith('.gz') ? fileStream.pipe(createGunzip()) : fileStream;
      counts = await restoreDatabase(getSql(), input, { replace: values.replace });
    }
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    process.stderr.write(`${command}: ${Object.keys(counts).length} tables, ${rows} rows\n`);
    return 0;
  } finally {
    await closeDb();
    await db.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    const known = err instanceof EnvError || err instanceof RestoreError;
    process.stderr.write(
      known ? `${(err as Error).message}\n` : `failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
