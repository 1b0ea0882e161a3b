import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import { type EmbeddedHandle, startEmbeddedPostgres } from '@/db/embedded';

/**
 * The chaos run's own PostgreSQL: the product's embedded server (db/embedded.ts) in a temporary directory,
 * owned by this process so that it can be stopped and started again on the same port and data (the
 * outage), and one connection of the run's own for the faults' statements and the checks afterwards.
 */
export class ChaosDatabase {
  private handle: EmbeddedHandle | undefined;
  private admin: Sql | undefined;

  private constructor(
    private readonly dataDir: string,
    readonly port: number,
    readonly url: string,
  ) {}

  static async start(): Promise<ChaosDatabase> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'encore-chaos-'));
    const handle = await startEmbeddedPostgres({ dataDir, mode: 'own', portFrom: 55_400 });
    const db = new ChaosDatabase(dataDir, handle.port, handle.url);
    db.handle = handle;
    return db;
  }

  /** The run's connection (one, reconnecting after an outage or a termination). */
  sql(): Sql {
    this.admin ??= postgres(this.url, { max: 1, onnotice: () => {}, connection: { application_name: 'chaos' } });
    return this.admin;
  }

  /** Terminates every other backend of the database (the app's pools, the job queue's); answers how many. */
  async terminateBackends(): Promise<number> {
    const rows = await this.sql()<{ terminated: boolean }[]>`
      select pg_terminate_backend(pid) as terminated from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`;
    return rows.filter((r) => r.terminated).length;
  }

  /** A fast shutdown (SIGINT to the postmaster): sessions aborted, nothing accepted is lost. */
  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await this.admin?.end({ timeout: 1 }).catch(() => undefined);
    this.admin = undefined;
    await handle?.stop();
  }

  /** Starts it again on the same port and data; resolves once it accepts connections. */
  async restart(): Promise<void> {
    this.handle = await startEmbeddedPostgres({ dataDir: this.dataDir, port: this.port, mode: 'own' });
  }

  /** Stops it and removes its data. */
  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
