import { z } from 'zod';
import { sendJob } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { errorFields, log } from '@/server/lib/log';
import { dispatchDue } from './delivery';

/**
 * Delivers every due webhook message. Triggered after messages are enqueued (kickWebhookDispatch),
 * at the time the earliest retry is due, and every minute as a sweep — so a lost trigger or a
 * restarted app only delays a message, never drops it.
 */
export const webhookDispatchJob = defineJob({
  id: 'webhooks.dispatch',
  description: 'Deliver due webhook messages',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 2,
  concurrency: 2,
  async run() {
    const result = await dispatchDue();
    if (result.nextDueAt) await scheduleDispatchAt(result.nextDueAt);
    return { delivered: result.delivered, failed: result.failed, nextDueAt: result.nextDueAt?.toISOString() ?? null };
  },
});

async function scheduleDispatchAt(at: Date | string): Promise<void> {
  // One queued dispatch per second of due time, however many messages fall due in it.
  const second = Math.ceil(new Date(at).getTime() / 1000);
  await sendJob(webhookDispatchJob, {}, { runAt: new Date(second * 1000), singletonKey: `at-${second}` });
}

let kickTimer: NodeJS.Timeout | undefined;

/**
 * Asks for a dispatch soon, after the enqueueing transaction committed. Kicks within 25 ms are merged
 * into one job, so a burst of state changes costs one queue write.
 */
export function kickWebhookDispatch(): void {
  if (kickTimer) return;
  kickTimer = setTimeout(() => {
    kickTimer = undefined;
    sendJob(webhookDispatchJob, {}).catch((err) =>
      log.warn('could not queue webhook dispatch; the sweep will', errorFields(err)),
    );
  }, 25);
  kickTimer.unref?.();
}
