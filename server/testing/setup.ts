import { afterAll, inject } from 'vitest';
import { closeDb } from '@/db';
import { resetEnvCache } from '@/server/env';
// Modules subscribe to each other's domain events here (see the file); every entry point loads it.
import '@/server/wiring';

process.env.DATABASE_URL = inject('databaseUrl');
process.env.LOG_LEVEL ??= 'silent';
process.env.PUBLIC_BASE_URL ??= 'http://encore.test';
resetEnvCache();

afterAll(async () => {
  await closeDb();
});
