import { afterAll, inject } from 'vitest';
import { closeDb } from '@/db';
import { resetEnvCache } from '@/server/env';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

// This worker's own database (server/testing/global-setup.ts): files of other workers never see its rows.
const urls = inject('databaseUrls');
process.env.DATABASE_URL = urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length];
process.env.TEST_PG_SERVER_URL = inject('pgServerUrl');
process.env.TEST_PG_TEMPLATE = inject('pgTemplate');
process.env.LOG_LEVEL ??= 'silent';
process.env.PUBLIC_BASE_URL ??= 'http://encore.test';
resetEnvCache();

afterAll(async () => {
  await closeDb();
});
