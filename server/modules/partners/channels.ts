import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { transaction } from '@/server/lib/transaction';
import { apiKeys, channels } from '@/db/schema/partners';
import { badRequest, notFound } from '@/server/lib/errors';
import { newId, newSigningSecret } from '@/server/lib/ids';
import { partnerUrlProblem } from '@/server/lib/outbound';
import { notifyChannelDisabled } from './events';
import {
  type CreateChannelInput,
  createChannelInput,
  type SetChannelDisabledInput,
  setChannelDisabledInput,
  type UpdateChannelInput,
  updateChannelInput,
} from './schemas';
import { forgetCheckedKeys } from './key-authentication';
import { getPartner } from './partners';

export type Channel = typeof channels.$inferSelect;
/** A channel as staff see it: never its signing secret after creation. */
export type ChannelRecord = Omit<Channel, 'signingSecret'> & { activeKeys: number };

const publicColumns = {
  id: channels.id,
  partnerId: channels.partnerId,
  name: channels.name,
  webhookUrl: channels.webhookUrl,
  payoutAccountId: channels.payoutAccountId,
  disabledAt: channels.disabledAt,
  createdAt: channels.createdAt,
  updatedAt: channels.updatedAt,
  activeKeys: sql<number>`(select count(*)::int from ${apiKeys} k where k.channel_id = ${channels.id} and k.revoked_at is null)`,
};

async function checkedWebhookUrl(url: string | null | undefined): Promise<string | null> {
  if (!url) return null;
  const problem = await partnerUrlProblem(url, 'webhookUrl');
  if (problem) throw badRequest(problem.message, [problem]);
  return url;
}

/** One of the partner's channels (404 for another partner's: nothing is learnt of it). */
export async function getChannel(partnerId: string, channelId: string, db: DbOrTx): Promise<Channel> {
  const [row] = await db
    .select()
    .from(channels)
    .where(and(eq(channels.id, channelId), eq(channels.partnerId, partnerId)));
  if (!row) throw notFound('Channel not found');
  return row;
}

/** The partner's first channel, created as "Default channel" when it has none (for keys made without one). */
export async function defaultChannel(partnerId: string, db: DbOrTx): Promise<Channel> {
  const [first] = await db
    .select()
    .from(channels)
    .where(eq(channels.partnerId, partnerId))
    .orderBy(asc(channels.createdAt), asc(channels.id))
    .limit(1);
  if (first) return first;
  const [created] = await db
    .insert(channels)
    .values({ id: newId('chn'), partnerId, name: 'Default channel', signingSecret: newSigningSecret() })
    .returning();
  return created;
}

/** Creates a channel; its signing secret is answered once here (staff hand it to the channel). */
export async function createChannel(input: CreateChannelInput, db: DbOrTx) {
  const data = createChannelInput.parse(input);
  await getPartner(data.partnerId, db);
  const webhookUrl = await checkedWebhookUrl(data.webhookUrl);
  const [channel] = await db
    .insert(channels)
    .values({
      id: newId('chn'),
      partnerId: data.partnerId,
      name: data.name,
      webhookUrl,
      signingSecret: newSigningSecret(),
    })
    .returning();
  return channel;
}

export async function listChannels(partnerId: string, db: DbOrTx): Promise<ChannelRecord[]> {
  return db
    .select(publicColumns)
    .from(channels)
    .where(eq(channels.partnerId, partnerId))
    .orderBy(asc(channels.createdAt), asc(channels.id));
}

/**
 * The names of a partner's channels by their ids, in one query (a dashboard table names the channel of
 * every row it shows). Matched case-insensitively: the marketplace's seller marker keeps the id in lower case.
 */
export async function channelNames(partnerId: string, channelIds: string[], db: DbOrTx): Promise<Map<string, string>> {
  const wanted = [...new Set(channelIds.map((id) => id.toLowerCase()))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ id: channels.id, name: channels.name })
    .from(channels)
    .where(and(eq(channels.partnerId, partnerId), inArray(sql<string>`lower(${channels.id})`, wanted)));
  return new Map(rows.map((r) => [r.id.toLowerCase(), r.name]));
}

async function channelRecord(channelId: string, db: DbOrTx): Promise<ChannelRecord> {
  const [row] = await db.select(publicColumns).from(channels).where(eq(channels.id, channelId));
  return row;
}

export async function updateChannel(input: UpdateChannelInput, db: DbOrTx): Promise<ChannelRecord> {
  const data = updateChannelInput.parse(input);
  await getChannel(data.partnerId, data.channelId, db);
  const webhookUrl = await checkedWebhookUrl(data.webhookUrl);
  await db
    .update(channels)
    .set({ name: data.name, webhookUrl, updatedAt: sql`now()` })
    .where(eq(channels.id, data.channelId));
  return channelRecord(data.channelId, db);
}

/**
 * Disables a channel (its keys answer 403, its webhooks wait, and its listings leave the market: UNLISTED,
 * with any buyer's hold cancelled, in the same transaction) or enables it again (the channel PUTs its
 * listings to put them back on sale).
 */
export async function setChannelDisabled(input: SetChannelDisabledInput, db: DbOrTx): Promise<ChannelRecord> {
  const data = setChannelDisabledInput.parse(input);
  await getChannel(data.partnerId, data.channelId, db);
  await transaction(async ({ tx }) => {
    await tx
      .update(channels)
      .set({ disabledAt: data.disabled ? sql`coalesce(${channels.disabledAt}, now())` : null, updatedAt: sql`now()` })
      .where(eq(channels.id, data.channelId));
    if (data.disabled) await notifyChannelDisabled(tx, data.channelId);
  }, db as Db);
  forgetCheckedKeys();
  return channelRecord(data.channelId, db);
}

/** The secret the channel verifies our webhooks with; a new one replaces it at once. */
export async function rotateChannelSecret(partnerId: string, channelId: string, db: DbOrTx) {
  await getChannel(partnerId, channelId, db);
  const signingSecret = newSigningSecret();
  await db
    .update(channels)
    .set({ signingSecret, updatedAt: sql`now()` })
    .where(eq(channels.id, channelId));
  return signingSecret;
}
