import { z } from 'zod';
import { getDb } from '@/db';
import {
  channelListingCounts,
  channelListingStatus,
  channelPayoutSetup,
  channelSaleStatus,
  staffChannelListings,
  staffChannelSales,
} from '@/server/modules/channels';
import {
  createChannel,
  createChannelInput,
  getChannel,
  getPartner,
  listChannels,
  rotateChannelSecret,
  setChannelDisabled,
  setChannelDisabledInput,
  updateChannel,
  updateChannelInput,
} from '@/server/modules/partners';
import { sendChannelTestMessage } from '@/server/modules/webhooks';
import { audited, staffActor } from '@/server/modules/audit';
import { staffProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });
const channelRef = z.object({ partnerId: z.string().min(1), channelId: z.string().min(1) });
/** One page of a channel's listings or sales, optionally of one status. */
const pageOfChannel = <S extends z.ZodType>(status: S) =>
  channelRef.extend({
    status: status.optional(),
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(25),
  });

/**
 * Channels for staff: a partner's channels (external platforms pushing resale listings) with their keys
 * (the partners router's keys, filtered by channel), listing counts, each channel's listings and sales, and
 * its payout setup.
 */
export const channelsRouter = router({
  list: staffProcedure('read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      const [channels, counts] = await Promise.all([
        listChannels(input.partnerId, getDb()),
        channelListingCounts(input.partnerId, getDb()),
      ]);
      return channels.map((c) => ({ ...c, listings: counts.get(c.id) ?? {} }));
    }),
  get: staffProcedure('read')
    .input(channelRef)
    .query(async ({ input }) => {
      const channel = await getChannel(input.partnerId, input.channelId, getDb());
      const { signingSecret: _secret, ...rest } = channel;
      return rest;
    }),
  /** Answers the channel with its signing secret: shown once, for staff to hand to the channel. */
  create: staffProcedure('admin')
    .input(createChannelInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => createChannel(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'channel.created',
          partnerId: input.partnerId,
          target: (c) => ({ type: 'channel', id: c.id }),
        },
        getDb(),
      ),
    ),
  update: staffProcedure('admin')
    .input(updateChannelInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => updateChannel(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'channel.updated',
          partnerId: input.partnerId,
          target: { type: 'channel', id: input.channelId },
          before: (tx) => getChannel(input.partnerId, input.channelId, tx),
        },
        getDb(),
      ),
    ),
  setDisabled: staffProcedure('admin')
    .input(setChannelDisabledInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setChannelDisabled(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: input.disabled ? 'channel.disabled' : 'channel.enabled',
          partnerId: input.partnerId,
          target: { type: 'channel', id: input.channelId },
          before: async (tx) => ({ disabledAt: (await getChannel(input.partnerId, input.channelId, tx)).disabledAt }),
          after: (c) => ({ disabledAt: c.disabledAt }),
        },
        getDb(),
      ),
    ),
  rotateSecret: staffProcedure('admin')
    .input(channelRef)
    .mutation(async ({ input, ctx }) => ({
      signingSecret: await audited(
        ({ tx }) => rotateChannelSecret(input.partnerId, input.channelId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'channel.secret_rotated',
          partnerId: input.partnerId,
          target: { type: 'channel', id: input.channelId },
          // That it changed, never the secret.
          before: async () => ({ signingSecretRotated: false }),
          after: () => ({ signingSecretRotated: true }),
        },
        getDb(),
      ),
    })),
  /** A `test.ping` to the channel's webhook URL (held until it has one), shown in its delivery log. */
  sendTest: staffProcedure('admin')
    .input(channelRef)
    .mutation(async ({ input, ctx }) => ({
      messageId: await audited(
        (work) => sendChannelTestMessage(input.partnerId, input.channelId, work),
        {
          actor: staffActor(ctx.staff),
          action: 'channel.test_sent',
          partnerId: input.partnerId,
          target: { type: 'channel', id: input.channelId },
          after: (messageId) => ({ messageId }),
        },
        getDb(),
      ),
    })),
  listings: staffProcedure('read')
    .input(pageOfChannel(channelListingStatus))
    .query(async ({ input: { partnerId, channelId, ...page } }) => {
      await getChannel(partnerId, channelId, getDb());
      return staffChannelListings(partnerId, channelId, page, getDb());
    }),
  sales: staffProcedure('read')
    .input(pageOfChannel(channelSaleStatus))
    .query(async ({ input: { partnerId, channelId, ...page } }) => {
      await getChannel(partnerId, channelId, getDb());
      return staffChannelSales(partnerId, channelId, page, getDb());
    }),
  /** The status of the payout account the channel's sales are paid to (`none` before it is set up). */
  payoutSetup: staffProcedure('read')
    .input(channelRef)
    .query(async ({ input }) => {
      await getChannel(input.partnerId, input.channelId, getDb());
      return channelPayoutSetup(input.partnerId, input.channelId, getDb());
    }),
  /** Creates the channel's payout account if needed; answers the onboarding link for the channel (none once active). */
  startPayoutSetup: staffProcedure('money')
    .input(channelRef)
    .mutation(async ({ input }) => {
      await getChannel(input.partnerId, input.channelId, getDb());
      return channelPayoutSetup(input.partnerId, input.channelId, getDb(), true);
    }),
});
