// Test helper process: an app instance reduced to its background part. It starts the local job
// provider on the given database and kicks a webhook dispatch, as the app does at boot (and, with
// WORKER_IMPORT_BATCH, queues that ticket batch's import); tests kill it with SIGKILL to simulate a crash.
import { resetEnvCache } from '@/server/env';

process.env.DATABASE_URL = process.argv[2];
process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
process.env.LOG_LEVEL = process.env.WORKER_LOG_LEVEL ?? 'error';
resetEnvCache();

const { startJobs } = await import('@/server/jobs/client');
const { allJobs } = await import('@/server/jobs/registry');
const { requestDispatch } = await import('@/server/modules/webhooks');
await startJobs(allJobs());
requestDispatch();
if (process.env.WORKER_IMPORT_BATCH) {
  const { sendJob } = await import('@/server/jobs/client');
  const { importTicketBatchJob } = await import('@/server/modules/tickets');
  await sendJob(importTicketBatchJob, { batchId: process.env.WORKER_IMPORT_BATCH });
}
process.stdout.write('WORKING\n');
// Exit with the test that started us: its end of our stdin closes when it goes, even if it crashed.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setInterval(() => {}, 1 << 30);
