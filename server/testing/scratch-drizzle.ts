import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import * as schema from '@/db/schema';
import { createScratchDatabase } from './scratch-db';

/**
 * A scratch database of a test file's own, as drizzle over a pool of 12 (room for a race of 20 calls), made
 * before the file's tests and dropped after them: for a rule that counts a whole table ("the last admin"),
 * which the other files' rows must not reach.
 */
export function scratchDrizzleForFile(label: string) {
  const handle: { db: ReturnType<typeof drizzle<typeof schema>>; sql: postgres.Sql } = {} as never;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(label);
    drop = scratch.drop;
    handle.sql = postgres(scratch.url, { max: 12, onnotice: () => {} });
    handle.db = drizzle(handle.sql, { schema, casing: 'snake_case' });
  }, 120_000);
  afterAll(async () => {
    await handle.sql?.end();
    await drop?.();
  });
  return handle;
}
