import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { getDb } from '@/db';
import { channels } from '@/db/schema';
import { setEnv } from './env';
import { recordJobs } from './jobs';
import { Receiver } from './receiver';

/**
 * The set-up channel tests share, registered as the file's beforeAll/afterAll: a receiver standing in for
 * the channels' webhook URL (`hub`), private URLs allowed, and the jobs sent recorded (`jobs`). Channels a
 * test points at the hub go in `channelIds`: their URL is cleared after the file, so messages still queued
 * for them are held instead of retried against a closed port by other files sharing the database.
 */
export function channelHubForFile() {
  const ctx = {
    hub: undefined as unknown as Receiver,
    jobs: undefined as unknown as ReturnType<typeof recordJobs>,
    channelIds: [] as string[],
  };
  let restoreEnv: () => void = () => {};
  beforeAll(async () => {
    ctx.hub = await new Receiver().start();
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
    ctx.jobs = recordJobs();
  });
  afterAll(async () => {
    if (ctx.channelIds.length)
      await getDb().update(channels).set({ webhookUrl: null }).where(inArray(channels.id, ctx.channelIds));
    ctx.jobs.restore();
    restoreEnv();
    await ctx.hub.stop();
  });
  return ctx;
}
