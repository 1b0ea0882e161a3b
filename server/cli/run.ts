import { closeDb } from '@/db';
import { prepareDatabase } from '@/server/boot';
import { EnvError } from '@/server/env';

/**
 * Runs a command-line tool against the database (DATABASE_URL, or the app's embedded PostgreSQL,
 * attached or started for the command) and exits with its code. Errors whose message is meant for the
 * user (an invalid environment, or one of `known`) print as they are; others after "<name> failed:".
 */
export function runWithDatabase(
  name: string,
  work: () => Promise<number>,
  known: (err: unknown) => boolean = () => false,
): void {
  const main = async () => {
    const db = await prepareDatabase('attach');
    try {
      return await work();
    } finally {
      await closeDb();
      await db.stop();
    }
  };
  main().then(
    (code) => process.exit(code),
    (err) => {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(err instanceof EnvError || known(err) ? `${message}\n` : `${name} failed: ${message}\n`);
      process.exit(1);
    },
  );
}
