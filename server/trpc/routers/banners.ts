import { z } from 'zod';
import { getDb } from '@/db';
import {
  bannerInput,
  createBanner,
  deleteBanner,
  listBanners,
  updateBanner,
  updateBannerInput,
} from '@/server/modules/access-layer';
import { getPartner } from '@/server/modules/partners';
import { audited, staffActor } from '@/server/modules/audit';
import { partnerProcedure, staffProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** A partner's sell banners (the access layer's `sellBanner` components): list, create, edit, delete. */
export const bannersRouter = router({
  list: partnerProcedure('read', 'read')
    .input(partnerRef)
    .query(async ({ input }) => {
      await getPartner(input.partnerId, getDb());
      return listBanners(input.partnerId, getDb());
    }),
  create: staffProcedure('admin')
    .input(bannerInput)
    .mutation(({ input, ctx }) =>
      audited(
        async ({ tx }) => {
          await getPartner(input.partnerId, tx);
          return createBanner(input, tx);
        },
        {
          actor: staffActor(ctx.staff),
          action: 'banner.created',
          partnerId: input.partnerId,
          target: (b) => ({ type: 'banner', id: b.id }),
        },
        getDb(),
      ),
    ),
  update: staffProcedure('admin')
    .input(updateBannerInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => updateBanner(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'banner.updated',
          partnerId: input.partnerId,
          target: { type: 'banner', id: input.bannerId },
          before: async (tx) => {
            await getPartner(input.partnerId, tx);
            return (await listBanners(input.partnerId, tx)).items.find((b) => b.id === input.bannerId) ?? null;
          },
        },
        getDb(),
      ),
    ),
  delete: staffProcedure('admin')
    .input(partnerRef.extend({ bannerId: z.string().min(1) }))
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => deleteBanner(input.partnerId, input.bannerId, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'banner.deleted',
          partnerId: input.partnerId,
          target: { type: 'banner', id: input.bannerId },
          removes: true,
        },
        getDb(),
      ),
    ),
});
