import type { TestProject } from 'vitest/node';
import { createScratchDatabase } from './scratch-db';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One real PostgreSQL for the run: with DATABASE_URL, a scratch database created on that server (and
 * dropped afterwards) so runs never see each other's rows; without, an embedded PostgreSQL in a
 * temporary directory. Migrations are applied exactly as the app applies them.
 */
export default async function setup(project: TestProject) {
  const db = await createScratchDatabase('test');
  project.provide('databaseUrl', db.url);
  return db.drop;
}
