import { pingDatabase } from '@/server/lib/db-health';
import { isDraining } from '@/server/shutdown';

export interface Health {
  ok: boolean;
  database: 'up' | 'down';
  /** The instance is stopping (SIGTERM): it finishes what it has, and takes nothing new. */
  draining?: true;
  error?: string;
}

/**
 * Healthy when the database answers a query within two seconds and the instance is not stopping: a load
 * balancer's check (`/healthz`) takes a draining instance out of rotation from the signal on.
 */
export async function checkHealth(): Promise<Health> {
  if (isDraining()) return { ok: false, database: 'up', draining: true, error: 'the instance is stopping' };
  try {
    await pingDatabase();
    return { ok: true, database: 'up' };
  } catch (err) {
    return { ok: false, database: 'down', error: (err as Error).message };
  }
}
