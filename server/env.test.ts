import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('environment validation', () => {
  it('applies defaults and treats empty variables as unset', () => {
    const e = parseEnv({ PORT: '', DATA_DIR: '' });
    expect(e.PORT).toBe(3000);
    expect(e.DATA_DIR).toBe('./.data');
    expect(e.DEMO_PARTNER).toBe(true);
  });

  it('names every bad variable in one readable error', () => {
    let error: unknown;
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('Invalid environment configuration');
    expect(message).toMatch(/PORT: /);
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('ADMIN_PASSWORD: must be at least 8 characters');
  });
});
