import { z } from 'zod';
import { getSql } from '@/db';
import { sendJob, sendJobSoon } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { dispatchDue } from './delivery';
import { WEBHOOK_DISPATCH_JOB } from './outbox';

/**
 * Delivers every due webhook message. Triggered after messages are enqueued (the outbox asks after its commit),
 * at the time the earliest retry is due, and every minute as a sweep — so a lost trigger or a
 * restarted app only delays a message, never drops it.
 */
export const webhookDispatchJob = defineJob({
  id: WEBHOOK_DISPATCH_JOB,
  description: 'Deliver due webhook messages',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 2,
  concurrency: 2,
  async run() {
    const result = await dispatchDue(getSql(), {
      // A dispatch queued for the lease's end: if this process dies holding messages, a live one sends them then.
      onLease: (until) => void scheduleDispatchAt(until).catch(() => undefined),
    });
    if (result.nextDueAt) await scheduleDispatchAt(result.nextDueAt);
    return { delivered: result.delivered, failed: result.failed, nextDueAt: result.nextDueAt?.toISOString() ?? null };
  },
});

async function scheduleDispatchAt(at: Date | string): Promise<void> {
  // One queued dispatch per second of due time, however many messages fall due in it; this process asks
  // once per second (a dispatcher claims many times a second, each claim's lease ending in the same second).
  const second = Math.ceil(new Date(at).getTime() / 1000);
  if (second === lastAsked) return;
  lastAsked = second;
  await sendJob(webhookDispatchJob, {}, { runAt: new Date(second * 1000), singletonKey: `at-${second}` });
}
let lastAsked = 0;

/** Asks for a dispatch soon, outside any transaction: at boot, for what the last run left pending. */
export function requestDispatch(): void {
  sendJobSoon(WEBHOOK_DISPATCH_JOB, {});
}
