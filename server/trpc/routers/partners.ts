import {
  createApiKeyInput,
  createPartnerInput,
  listPartnersInput,
  revokeApiKeyInput,
} from '@/server/modules/partners/schemas';
import {
  createApiKey,
  createPartnerWithKeys,
  getPartner,
  listApiKeys,
  listPartners,
  revokeApiKey,
} from '@/server/modules/partners/service';
import { protectedProcedure, router } from '../init';

const partnerIdInput = revokeApiKeyInput.pick({ partnerId: true });

const keysRouter = router({
  list: protectedProcedure.input(partnerIdInput).query(({ input }) => listApiKeys(input.partnerId)),
  /** The secret is in this response only; it is stored hashed and cannot be shown again. */
  create: protectedProcedure.input(createApiKeyInput).mutation(({ input }) => createApiKey(input)),
  revoke: protectedProcedure
    .input(revokeApiKeyInput)
    .mutation(({ input }) => revokeApiKey(input.partnerId, input.keyId)),
});

export const partnersRouter = router({
  list: protectedProcedure.input(listPartnersInput).query(({ input }) => listPartners(input)),
  get: protectedProcedure.input(partnerIdInput).query(({ input }) => getPartner(input.partnerId)),
  /** Returns the partner and its two initial keys; the keys are shown once. */
  create: protectedProcedure.input(createPartnerInput).mutation(({ input }) => createPartnerWithKeys(input.name)),
  keys: keysRouter,
});
