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
import { protectedProcedure, router } from '../init';

const partnerRef = z.object({ partnerId: z.string().min(1) });

/** A partner's sell banners (the access layer's `sellBanner` components): list, create, edit, delete. */
export const bannersRouter = router({
  list: protectedProcedure.input(partnerRef).query(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    return listBanners(input.partnerId, getDb());
  }),
  create: protectedProcedure.input(bannerInput).mutation(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    return createBanner(input, getDb());
  }),
  update: protectedProcedure.input(updateBannerInput).mutation(async ({ input }) => {
    await getPartner(input.partnerId, getDb());
    return updateBanner(input, getDb());
  }),
  delete: protectedProcedure
    .input(partnerRef.extend({ bannerId: z.string().min(1) }))
    .mutation(({ input }) => deleteBanner(input.partnerId, input.bannerId, getDb())),
});
