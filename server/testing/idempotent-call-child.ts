// Test helper process: one partner API call with an Idempotency-Key (POST /v1/tickets, the route handler as
// Next.js runs it) on the database given, in a process that dies (SIGKILL, as a crash would) at the first job
// it queues: the ticket batch's import, queued after the batch's transaction has committed and before the
// handler returns, i.e. between the call's effect and its answer (an answer stored after the handler returned
// would be lost here). IDEM_CALL: JSON { apiKey, idem, body }.
import { resetEnvCache } from '@/server/env';

process.env.DATABASE_URL = process.argv[2];
process.env.LOG_LEVEL = 'error';
resetEnvCache();

const { replaceJobProvider } = await import('@/server/jobs/client');
const die = (): Promise<void> => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise(() => {});
};
replaceJobProvider({ name: 'local', send: die, sendMany: die, start: async () => {}, stop: async () => {} });

const { POST } = await import('@/app/v1/tickets/route');
const { apiRequest, routeParams } = await import('@/server/testing/fixtures');
const { apiKey, idem, body } = JSON.parse(process.env.IDEM_CALL!) as { apiKey: string; idem: string; body: unknown };
const res = await POST(
  apiRequest('/v1/tickets', { method: 'POST', key: apiKey, body, headers: { 'idempotency-key': idem } }),
  routeParams({}),
);
// Not reached when the call queued its job; said so the test can tell what went wrong.
process.stdout.write(`ANSWERED ${res.status} ${await res.text()}\n`);
process.exit(0);
