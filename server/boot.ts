import { count, eq, sql } from 'drizzle-orm';
import { getDb, runMigrations } from '@/db';
import { startEmbeddedPostgres } from '@/db/embedded';
import { partners, staffUsers } from '@/db/schema';
import { env, publicBaseUrl, resetEnvCache } from '@/server/env';
import { appSecret } from '@/server/lib/app-secret';
import { log } from '@/server/lib/log';
import { oneTimeTokenKey } from '@/server/modules/fans';
import { createPartnerWithKeys } from '@/server/modules/partners';
import { createStaff } from '@/server/modules/staff';
import { startJobs } from '@/server/jobs/client';
import { installGracefulShutdown } from '@/server/shutdown';
import { allJobs } from '@/server/jobs/registry';
import { requestDispatch } from '@/server/modules/webhooks';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * Resolves the database this process uses and applies migrations. With DATABASE_URL: that server.
 * Without: the embedded PostgreSQL under DATA_DIR; `mode` says whether this process owns it (the app)
 * or may attach to one already running (the CLI beside a running app).
 */
export async function prepareDatabase(mode: 'own' | 'attach'): Promise<DatabaseHandle> {
  const e = env();
  let handle: DatabaseHandle;
  if (e.DATABASE_URL) {
    handle = { url: e.DATABASE_URL, embedded: false, stop: async () => {} };
  } else {
    const pg = await startEmbeddedPostgres({
      dataDir: e.DATA_DIR,
      port: e.EMBEDDED_PG_PORT,
      mode,
      log: (line) => log.debug('embedded-postgres', { line }),
    });
    handle = { url: pg.url, embedded: true, stop: pg.stop };
    process.env.DATABASE_URL = pg.url;
    resetEnvCache();
  }
  await runMigrations(handle.url);
  return handle;
}

/** The session-signing secret: NEXTAUTH_SECRET, or one generated once and shared through the database. */
async function ensureSessionSecret(): Promise<void> {
  if (process.env.NEXTAUTH_SECRET) return;
  process.env.NEXTAUTH_SECRET = await appSecret('nextauth_secret');
}

async function ensureAdminFromEnv(): Promise<void> {
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = env();
  if (!ADMIN_EMAIL || !ADMIN_PASSWORD) return;
  const email = ADMIN_EMAIL.toLowerCase();
  const [existing] = await getDb().select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
  if (existing) return;
  await createStaff({ email, password: ADMIN_PASSWORD, name: 'Admin', role: 'admin' }, getDb()).catch((err) => {
    // Another instance created it at the same moment.
    if ((err as { code?: string }).code !== 'CONFLICT') throw err;
  });
  log.info('created the first admin from ADMIN_EMAIL', { email });
}

/** On first start with an empty database, create a demo partner and print its keys once. */
async function ensureDemoPartner(): Promise<void> {
  if (!env().DEMO_PARTNER) return;
  const created = await getDb().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727276)`);
    const [{ n }] = await tx.select({ n: count() }).from(partners);
    if (n > 0) return null;
    return createPartnerWithKeys('Demo Partner', tx);
  });
  if (created) {
    // Printed once, in plain text, so a developer can copy it; it is never shown again.
    process.stdout.write(
      [
        '',
        '  Demo partner created (shown once):',
        `    partnerId       ${created.partner.id}`,
        `    apiKey          ${created.apiKey}`,
        `    channelsApiKey  ${created.channelsApiKey}`,
        `    testApiKey      ${created.testApiKey}   (test mode: a data space of its own, sandbox payments)`,
        `    publishableKey  ${created.publishableKey}   (the widget's, not secret; on the partner's dashboard page)`,
        `    try: curl -H "Authorization: ${created.apiKey}" ${publicBaseUrl()}/v1/me`,
        '',
      ].join('\n') + '\n',
    );
  }
}

let booted: Promise<void> | undefined;

/** Everything the app needs before it serves a request. Called once from instrumentation.ts. */
export function bootApp(): Promise<void> {
  booted ??= (async () => {
    const started = Date.now();
    env(); // fail fast, readably, on a bad environment
    const db = await prepareDatabase('own');
    process.env.NEXTAUTH_URL ??= publicBaseUrl();
    await ensureSessionSecret();
    // Read before the first request: redeeming and issuing one-time tokens need it (server/lib/app-secret.ts).
    await oneTimeTokenKey();
    await ensureAdminFromEnv();
    await ensureDemoPartner();
    const jobs = await startJobs(allJobs());
    installGracefulShutdown();
    // Messages left pending by the previous run are delivered now, not at the next sweep.
    requestDispatch();
    log.info('encore ready', {
      database: db.embedded ? 'embedded' : 'external',
      jobs: jobs.name,
      baseUrl: publicBaseUrl(),
      bootMs: Date.now() - started,
    });
  })();
  return booted;
}
