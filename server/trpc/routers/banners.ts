import { z } from 'zod';
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
    await getPartner(input.partnerId);
    return listBanners(input.partnerId);
  }),
  create: protectedProcedure.input(bannerInput).mutation(async ({ input }) => {
    await getPartner(input.partnerId);
    return createBanner(input);
  }),
  update: protectedProcedure.input(updateBannerInput).mutation(async ({ input }) => {
    await getPartner(input.partnerId);
    return updateBanner(input);
  }),
  delete: protectedProcedure
    .input(partnerRef.extend({ bannerId: z.string().min(1) }))
    .mutation(({ input }) => deleteBanner(input.partnerId, input.bannerId)),
});
