import { getSql } from '@/db';

/** Healthy when the database answers a query within two seconds. */
export async function checkHealth(): Promise<{ ok: boolean; database: 'up' | 'down'; error?: string }> {
  try {
    await Promise.race([
      getSql()`select 1`,
      new Promise((_, reject) => setTimeout(() => reject(new Error('database did not answer within 2 s')), 2000)),
    ]);
    return { ok: true, database: 'up' };
  } catch (err) {
    return { ok: false, database: 'down', error: (err as Error).message };
  }
}
