import { afterAll, beforeAll } from 'vitest';
import { resetEnvCache } from '@/server/env';

/**
 * Sets environment variables (undefined deletes one) for the rest of a test and re-reads the
 * environment; the returned function puts the previous values back.
 */
export function setEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  };
  apply(vars);
  return () => apply(saved);
}

/** setEnv for a whole test file: set in its beforeAll, put back in its afterAll. */
export function setEnvInFile(vars: Record<string, string | undefined>): void {
  let restore: (() => void) | null = null;
  beforeAll(() => {
    restore = setEnv(vars);
  });
  afterAll(() => restore?.());
}
