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
import { runWithDatabase } from './run';
import { getSql } from '@/db';

process.env.LOG_LEVEL = 'error';

const USAGE = 'usage: npm run db:backup -- --out FILE[.gz]\n       npm run db:restore -- --in FILE[.gz] [--replace]\n';

const [command, ...rest] = process.argv.slice(2);
let values: { out?: string; in?: string; replace?: boolean } = {};
try {
  ({ values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, in: { type: 'string' }, replace: { type: 'boolean', default: false } },
    strict: true,
  }));
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n`);
}

if (!(command === 'backup' && values.out) && !(command === 'restore' && values.in)) {
  process.stderr.write(USAGE);
  process.exit(2);
} else {
  runWithDatabase(
    `db:${command}`,
    async () => {
      let counts: Record<string, number>;
      if (values.out) {
        const fileStream = createWriteStream(values.out, { flags: 'wx' });
        const out: Writable = values.out.endsWith('.gz') ? createGzip() : fileStream;
        if (out !== fileStream) out.pipe(fileStream);
        counts = await backupDatabase(getSql(), out);
        out.end();
        await once(fileStream, 'close');
      } else {
        const fileStream = createReadStream(values.in!);
        const input: Readable = values.in!.endsWith('.gz') ? fileStream.pipe(createGunzip()) : fileStream;
        counts = await restoreDatabase(getSql(), input, { replace: values.replace });
      }
      const rows = Object.values(counts).reduce((a, b) => a + b, 0);
      process.stderr.write(`${command}: ${Object.keys(counts).length} tables, ${rows} rows\n`);
      return 0;
    },
    (err) => err instanceof RestoreError,
  );
}
