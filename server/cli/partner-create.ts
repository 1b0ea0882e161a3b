/**
 * `npm run partner:create -- --name "Acme"` → one JSON line on stdout:
 * {"partnerId": "...", "apiKey": "...", "channelsApiKey": "...", "publishableKey": "pk_live_...", "testPartnerId": "...",
 *  "testApiKey": "...", "testChannelsApiKey": "...", "testPublishableKey": "pk_test_..."}   (the test keys open the
 *  partner's test twin: test mode; the publishable keys are the web widget's)
 *
 * Works with the server running or not: with DATABASE_URL it uses that server; otherwise it attaches
 * to the app's running embedded PostgreSQL, or starts it for the duration of the command.
 */
import { parseArgs } from 'node:util';
import { getDb } from '@/db';
import { partnerName } from '@/server/modules/partners';
import { createPartnerCredentials } from '@/server/modules/partners';
import { runWithDatabase } from './run';

// stdout carries only the JSON line; diagnostics go to stderr.
process.env.LOG_LEVEL = 'error';

/** The partner's name from `--name`, or null after printing the usage (exit code 2). */
function nameFromArgs(): string | null {
  try {
    const { values } = parseArgs({ options: { name: { type: 'string', short: 'n' } }, strict: true });
    if (values.name === undefined) throw new Error('--name is required');
    const parsed = partnerName.safeParse(values.name);
    if (!parsed.success) throw new Error(parsed.error.issues[0].message);
    return parsed.data;
  } catch (err) {
    // The schema's own message ("Name is required", "Name is at most 100 characters") or parseArgs'.
    process.stderr.write(`usage: npm run partner:create -- --name "Partner name"\nerror: ${(err as Error).message}\n`);
    return null;
  }
}

const name = nameFromArgs();
if (name === null) process.exit(2);
else {
  runWithDatabase('partner:create', async () => {
    process.stdout.write(JSON.stringify(await createPartnerCredentials(name, getDb())) + '\n');
    return 0;
  });
}
