import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Sql, TransactionSql } from 'postgres';

/** A connection or an open transaction: the queries below only read the catalog and run COPY. */
type Query = Sql | TransactionSql;

/**
 * Logical backups of Encore's own tables, taken while the app runs. The embedded PostgreSQL ships no
 * pg_dump (and Debian's client is older than the server, which pg_dump refuses), so the backup is
 * written here: one REPEATABLE READ snapshot, each table as a `COPY … FROM stdin` block. The file is
 * plain SQL in pg_dump's data-only layout, so `psql` can load it into a database that has the schema,
 * and `restoreDatabase` loads it after applying the migrations.
 *
 * What is not copied: the job queue (schema `pgboss`): the truth lives in domain tables and the sweeps
 * re-queue what is due after a restore.
 */

const HEADER = '-- encore-backup ';

interface BackupHeader {
  version: 1;
  createdAt: string;
  /** Hashes of the migrations applied to the database the backup came from, in order. */
  migrations: string[];
  tables: string[];
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Public tables ordered so that every table comes after the tables its foreign keys point to. */
async function tablesInLoadOrder(sql: Query): Promise<string[]> {
  const tables = (
    await sql<{ name: string }[]>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by c.relname`
  ).map((r) => r.name);
  const deps = await sql<{ child: string; parent: string }[]>`
    select ch.relname as child, pa.relname as parent
    from pg_constraint k
    join pg_class ch on ch.oid = k.conrelid join pg_namespace n on n.oid = ch.relnamespace
    join pg_class pa on pa.oid = k.confrelid
    where k.contype = 'f' and n.nspname = 'public' and ch.relname <> pa.relname`;
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (done.has(t)) return;
    if (path.has(t)) throw new Error(`foreign keys form a cycle through ${t}`);
    path.add(t);
    for (const d of deps) if (d.child === t) visit(d.parent, path);
    path.delete(t);
    done.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

async function appliedMigrations(sql: Query): Promise<string[]> {
  const rows = await sql<{ hash: string }[]>`select hash from drizzle.__drizzle_migrations order by id`;
  return rows.map((r) => r.hash);
}

async function columnsOf(sql: Query, table: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select a.attname as name from pg_attribute a
    where a.attrelid = ${`public.${quoteIdent(table)}`}::regclass and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = ''
    order by a.attnum`;
  return rows.map((r) => r.name);
}

async function write(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Writes a consistent backup of every public table to `out` (not ended here). Returns the row counts. */
export async function backupDatabase(sql: Sql, out: Writable): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await sql.begin('isolation level repeatable read read only', async (tx) => {
    const tables = await tablesInLoadOrder(tx);
    const header: BackupHeader = {
      version: 1,
      createdAt: new Date().toISOString(),
      migrations: await appliedMigrations(tx),
      tables,
    };
    await write(out, `${HEADER}${JSON.stringify(header)}\n`);
    for (const table of tables) {
      const cols = (await columnsOf(tx, table)).map(quoteIdent).join(', ');
      await write(out, `COPY public.${quoteIdent(table)} (${cols}) FROM stdin;\n`);
      const stream = await tx.unsafe(`copy public.${quoteIdent(table)} (${cols}) to stdout`).readable();
      let rows = 0;
      // Piped rather than iterated with awaits: postgres.js's COPY stream can miss its end when it is
      // paused at the moment the copy completes (seen with tables of tens of megabytes).
      stream.on('data', (chunk: Buffer) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
      });
      await new Promise<void>((resolve, reject) => {
        stream.once('end', resolve);
        stream.once('error', reject);
        stream.pipe(out, { end: false });
      });
      counts[table] = rows;
      await write(out, '\\.\n\n');
    }
  });
  return counts;
}

export class RestoreError extends Error {}

/**
 * Loads a backup into a database whose migrations are already applied (the same ones as the backup's).
 * In one transaction: every public table is emptied, then filled from the backup, then serial
 * sequences are moved past the restored ids. A database with data is only replaced when `replace` is set.
 */
export async function restoreDatabase(
  sql: Sql,
  input: Readable,
  opts: { replace?: boolean } = {},
): Promise<Record<string, number>> {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done || !first.value.startsWith(HEADER)) throw new RestoreError('not an Encore backup (no header line)');
  const header = JSON.parse(first.value.slice(HEADER.length)) as BackupHeader;
  if (header.version !== 1) throw new RestoreError(`unsupported backup version ${String(header.version)}`);

  const counts: Record<string, number> = {};
  await sql.begin(async (tx) => {
    const here = await appliedMigrations(tx);
    if (here.length !== header.migrations.length || here.some((h, i) => h !== header.migrations[i])) {
      throw new RestoreError(
        `the backup was taken at migration ${header.migrations.length}, this database is at ${here.length}: ` +
          'restore with the Encore version that took it, then start the newer version to migrate',
      );
    }
    const tables = await tablesInLoadOrder(tx);
    if (!opts.replace) {
      for (const t of tables) {
        const [row] = await tx.unsafe<{ any: boolean }[]>(
          `select exists (select 1 from public.${quoteIdent(t)}) as any`,
        );
        if (row.any)
          throw new RestoreError(`the database already has data (table ${t}); pass --replace to overwrite it`);
      }
    }
    // The audit log refuses TRUNCATE but from a restore, which says so for its own transaction (0034).
    await tx.unsafe(`set local encore.restore = 'on'`);
    await tx.unsafe(`truncate ${tables.map((t) => `public.${quoteIdent(t)}`).join(', ')} cascade`);

    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const line = next.value;
      if (line === '' || line.startsWith('--')) continue;
      const m = /^COPY public\."((?:[^"]|"")+)" \((.*)\) FROM stdin;$/.exec(line);
      if (!m) throw new RestoreError(`unexpected line in backup: ${line.slice(0, 80)}`);
      const table = m[1].replaceAll('""', '"');
      if (!tables.includes(table)) throw new RestoreError(`the backup has a table this database lacks: ${table}`);
      const sink = await tx.unsafe(`copy public.${quoteIdent(table)} (${m[2]}) from stdin`).writable();
      let rows = 0;
      for (let row = await lines.next(); ; row = await lines.next()) {
        if (row.done) {
          // End the COPY with an error (CopyFail) so the transaction can roll back on this connection.
          const err = new RestoreError(`backup ends inside table ${table}`);
          sink.destroy(err);
          await once(sink, 'close').catch(() => {});
          throw err;
        }
        if (row.value === '\\.') break;
        rows++;
        await write(sink, row.value + '\n');
      }
      sink.end();
      await once(sink, 'finish');
      counts[table] = rows;
    }
    // Serial columns (e.g. webhook attempt ids) continue after the restored rows.
    const serials = await tx<{ table: string; column: string; seq: string }[]>`
      select c.relname as table, a.attname as column, pg_get_serial_sequence(format('public.%I', c.relname), a.attname) as seq
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and pg_get_serial_sequence(format('public.%I', c.relname), a.attname) is not null`;
    for (const s of serials) {
      await tx.unsafe(
        `select setval($1, coalesce((select max(${quoteIdent(s.column)}) from public.${quoteIdent(s.table)}), 0) + 1, false)`,
        [s.seq],
      );
    }
  });
  return counts;
}
