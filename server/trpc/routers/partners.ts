import { z } from 'zod';
import { getDb } from '@/db';
import { fetchFeedNow, pullFeed } from '@/server/modules/catalog';
import { getIntegration, testVerification, updateIntegration } from '@/server/modules/partners';
import {
  createApiKeyInput,
  createPartnerInput,
  listPartnersInput,
  renamePartnerInput,
  setPartnerLogoInput,
  setPartnerReturnOriginsInput,
  setPartnerSupportInput,
  revokeApiKeyInput,
  setPartnerDisabledInput,
  setPrimarySalesFeeInput,
  testVerificationInput,
  updateIntegrationInput,
} from '@/server/modules/partners';
import {
  createApiKey,
  createPartnerWithKeys,
  getPartner,
  listApiKeys,
  listPartners,
  renamePartner,
  setPartnerLogo,
  setPartnerReturnOrigins,
  setPartnerSupport,
  revokeApiKey,
  setPartnerDisabled,
  setPrimarySalesFee,
} from '@/server/modules/partners';
import { protectedProcedure, router } from '../init';

const partnerIdInput = revokeApiKeyInput.pick({ partnerId: true });

const keysRouter = router({
  list: protectedProcedure
    .input(partnerIdInput.extend({ channelId: z.string().min(1).optional() }))
    .query(({ input }) => listApiKeys(input.partnerId, getDb(), input.channelId)),
  /** The secret is in this response only; it is stored hashed and cannot be shown again. */
  create: protectedProcedure.input(createApiKeyInput).mutation(({ input }) => createApiKey(input, getDb())),
  revoke: protectedProcedure
    .input(revokeApiKeyInput)
    .mutation(({ input }) => revokeApiKey(input.partnerId, input.keyId, getDb())),
});

/** How Encore calls the partner's servers. The auth header value is write-only: reads show a hint. */
const integrationRouter = router({
  get: protectedProcedure.input(partnerIdInput).query(({ input }) => getIntegration(input.partnerId, getDb())),
  update: protectedProcedure.input(updateIntegrationInput).mutation(({ input }) => updateIntegration(input, getDb())),
  /** A partner failure is a result here (`ok: false`), not an error: it is what staff want to see. */
  testVerification: protectedProcedure
    .input(testVerificationInput)
    .mutation(({ input }) => testVerification(input.partnerId, input.userEmail, getDb())),
  fetchFeedNow: protectedProcedure
    .input(partnerIdInput)
    .mutation(({ input }) => fetchFeedNow(input.partnerId, getDb())),
  /** Fetches the feed and applies it to the catalogue now, like a scheduled run (recorded the same way). */
  pullFeedNow: protectedProcedure.input(partnerIdInput).mutation(({ input }) => pullFeed(input.partnerId, getDb())),
});

export const partnersRouter = router({
  list: protectedProcedure.input(listPartnersInput).query(({ input }) => listPartners(input, getDb())),
  get: protectedProcedure.input(partnerIdInput).query(({ input }) => getPartner(input.partnerId, getDb())),
  /** Returns the partner and its two initial keys; the keys are shown once. */
  create: protectedProcedure
    .input(createPartnerInput)
    .mutation(({ input }) => createPartnerWithKeys(input.name, getDb())),
  rename: protectedProcedure.input(renamePartnerInput).mutation(({ input }) => renamePartner(input, getDb())),
  /** The logo on every fan page of the partner (https only); an empty value removes it. */
  setLogo: protectedProcedure.input(setPartnerLogoInput).mutation(({ input }) => setPartnerLogo(input, getDb())),
  /** The partner's support contact for fans (https page, e-mail); empty values fall back to Encore's. */
  setSupport: protectedProcedure
    .input(setPartnerSupportInput)
    .mutation(({ input }) => setPartnerSupport(input, getDb())),
  /** Where fans may be sent back to (returnTo) and who may frame the embeddable fan pages; [] removes all. */
  setReturnOrigins: protectedProcedure
    .input(setPartnerReturnOriginsInput)
    .mutation(({ input }) => setPartnerReturnOrigins(input, getDb())),
  /** A disabled partner's keys answer 403; nothing is deleted and enabling again restores access. */
  setDisabled: protectedProcedure
    .input(setPartnerDisabledInput)
    .mutation(({ input }) => setPartnerDisabled(input, getDb())),
  /** The partner's default primary sales fee (used when ticket, option, show and event set none); null removes it. */
  setPrimarySalesFee: protectedProcedure
    .input(setPrimarySalesFeeInput)
    .mutation(({ input }) => setPrimarySalesFee(input, getDb())),
  keys: keysRouter,
  integration: integrationRouter,
});
