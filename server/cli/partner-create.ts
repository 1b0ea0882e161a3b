/**
 * `npm run partner:create -- --name "Acme"` → one JSON line on stdout:
 * {"partnerId": "...", "apiKey": "...", "channelsApiKey": "..."}
 *
 * Works with the server running or not: with DATABASE_URL it uses that server; otherwise it attaches
 * to the app's running embedded PostgreSQL, or starts it for the duration of the command.
 */
import { parseArgs } from 'node:util';
import { closeDb } from '@/db';
import { prepareDatabase } from '@/server/boot';
import { EnvError } from '@/server/env';
import { partnerName } from '@/server/modules/partners/schemas';
import { createPartnerWithKeys } from '@/server/modules/partners/service';

// stdout carries only the JSON line; diagnostics go to stderr.
process.env.LOG_LEVEL = 'error';

async function main(): Promise<number> {
  let name: string;
  try {
    const { values } = parseArgs({ options: { name: { type: 'string', short: 'n' } }, strict: true });
    if (values.name === undefined) throw new Error('--name is required');
    const parsed = partnerName.safeParse(values.name ?? '');
    if (!parsed.success) throw new Error(parsed.error.issues[0].message);
    name = parsed.data;
  } catch (err) {
    // The schema's own message ("Name is required", "Name is at most 100 characters") or parseArgs'.
    process.stderr.write(`usage: npm run partner:create -- --name "Partner name"\nerror: ${(err as Error).message}\n`);
    return 2;
  }
  const db = await prepareDatabase('attach');
  try {
    const { partner, apiKey, channelsApiKey } = await createPartnerWithKeys(name);
    process.stdout.write(JSON.stringify({ partnerId: partner.id, apiKey, channelsApiKey }) + '\n');
    return 0;
  } finally {
    await closeDb();
    await db.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      err instanceof EnvError
        ? `${err.message}\n`
        : `partner:create failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
