import { runMigrations } from '@/db';
import type { TestProject } from 'vitest/node';
import { createDatabase, startScratchServer, uniqueName } from './scratch-db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One database per worker slot (VITEST_POOL_ID 1…n), each a copy of the run's migrated template. */
    databaseUrls: string[];
    /** The run's server (its maintenance database) and template, for tests that want a database of their own. */
    pgServerUrl: string;
    pgTemplate: string;
  }
}

/**
 * One real PostgreSQL for the run: with DATABASE_URL, that server; without, an embedded PostgreSQL in a
 * temporary directory. The migrations are applied once, exactly as the app applies them, to a template
 * database; each worker gets its own copy (CREATE DATABASE … TEMPLATE), so files run in parallel and a
 * test that drives the dispatcher or a controlled clock sees only the rows of its own worker's files.
 * Everything made here is dropped afterwards.
 */
export default async function setup(project: TestProject) {
  const server = await startScratchServer('test', { fast: true });
  const templateName = uniqueName('test');
  const template = await createDatabase(server.adminUrl, templateName, { fast: true });
  const workers: { url: string; drop: () => Promise<void> }[] = [];
  try {
    await runMigrations(template.url);
    const slots = Math.max(1, Number(project.config.maxWorkers) || 1);
    for (let i = 1; i <= slots; i++) {
      workers.push(
        await createDatabase(server.adminUrl, `${templateName}_w${i}`, { template: templateName, fast: true }),
      );
    }
  } catch (err) {
    for (const db of [...workers, template]) await db.drop().catch(() => {});
    await server.stop();
    throw err;
  }
  project.provide(
    'databaseUrls',
    workers.map((w) => w.url),
  );
  project.provide('pgServerUrl', server.adminUrl);
  project.provide('pgTemplate', templateName);
  return async () => {
    for (const db of [...workers, template]) await db.drop();
    await server.stop();
  };
}
