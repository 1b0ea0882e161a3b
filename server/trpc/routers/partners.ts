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
  rotatePublishableKeyInput,
  setPartnerDisabledInput,
  setPartnerWidgetOriginsInput,
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
  publishableKeyOf,
  renamePartner,
  rotatePublishableKey,
  setPartnerLogo,
  setPartnerReturnOrigins,
  setPartnerSupport,
  setPartnerWidgetOrigins,
  revokeApiKey,
  setPartnerDisabled,
  setPrimarySalesFee,
} from '@/server/modules/partners';
import { audited, staffActor } from '@/server/modules/audit';
import { forgetTestIdempotencyKeys } from '@/server/http/idempotency';
import { testPartnerOf } from '@/server/modules/partners';
import { wipeTestData } from '@/server/modules/test-mode';
import type { WipeCounts } from '@/server/lib/wipe';
import { type Actor, auditActorOf, partnerProcedure, staffProcedure, router } from '../init';

const partnerIdInput = revokeApiKeyInput.pick({ partnerId: true });

type Partner = Awaited<ReturnType<typeof getPartner>>;
type PartnerField = keyof Partner;

/** A change to some of the partner's own fields, recorded with those fields before and after. */
function partnerChange(
  who: Actor | { id: string; email: string },
  partnerId: string,
  action: string,
  fields: PartnerField[],
) {
  const pick = (p: Partner) => Object.fromEntries(fields.map((f) => [f, p[f]]));
  return {
    actor: 'kind' in who ? auditActorOf(who) : staffActor(who),
    action,
    partnerId,
    target: { type: 'partner', id: partnerId },
    before: async (tx: Parameters<typeof getPartner>[1]) => pick(await getPartner(partnerId, tx)),
    after: pick,
  };
}

const keysRouter = router({
  list: partnerProcedure('read', 'read')
    .input(partnerIdInput.extend({ channelId: z.string().min(1).optional() }))
    .query(({ input }) => listApiKeys(input.partnerId, getDb(), input.channelId)),
  /** The secret is in this response only; it is stored hashed and cannot be shown again. */
  create: partnerProcedure('admin', 'develop')
    .input(createApiKeyInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => createApiKey(input, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'api_key.created',
          partnerId: input.partnerId,
          target: (r) => ({ type: 'api_key', id: r.key.id }),
          // The key record (prefix, label, kind); the secret is never recorded.
          after: (r) => r.key,
        },
        getDb(),
      ),
    ),
  revoke: partnerProcedure('admin', 'develop')
    .input(revokeApiKeyInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => revokeApiKey(input.partnerId, input.keyId, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'api_key.revoked',
          partnerId: input.partnerId,
          target: { type: 'api_key', id: input.keyId },
          before: async (tx) => (await listApiKeys(input.partnerId, tx)).find((k) => k.id === input.keyId) ?? null,
        },
        getDb(),
      ),
    ),
});

/**
 * The partner's publishable key (`pk_live_…`, a test twin's `pk_test_…`): the widget's, not a secret, so it is
 * shown whole. Rotating replaces it at once (the old one is refused); recorded with the old and new prefixes.
 */
const publishableKeysRouter = router({
  get: partnerProcedure('read', 'read')
    .input(partnerIdInput)
    .query(({ input }) => publishableKeyOf(input.partnerId, getDb())),
  rotate: partnerProcedure('admin', 'develop')
    .input(rotatePublishableKeyInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => rotatePublishableKey(input, tx),
        {
          actor: auditActorOf(ctx.actor),
          action: 'publishable_key.rotated',
          partnerId: input.partnerId,
          target: { type: 'api_key', id: input.keyId },
          // The key as staff see it (the key is public; its visible prefix tells old and new apart).
          before: async (tx) => {
            const key = await publishableKeyOf(input.partnerId, tx);
            return key && { id: key.id, prefix: key.prefix };
          },
          after: (r) => ({ id: r.key.id, prefix: r.key.prefix }),
        },
        getDb(),
      ),
    ),
});

/** How Encore calls the partner's servers. The auth header value is write-only: reads show a hint. */
const integrationRouter = router({
  get: staffProcedure('read')
    .input(partnerIdInput)
    .query(({ input }) => getIntegration(input.partnerId, getDb())),
  /** Recorded with the settings as staff see them: the auth header value only as "set" and its hint. */
  update: staffProcedure('admin')
    .input(updateIntegrationInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => updateIntegration(input, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'integration.updated',
          partnerId: input.partnerId,
          target: { type: 'integration', id: input.partnerId },
          before: (tx) => getIntegration(input.partnerId, tx),
        },
        getDb(),
      ),
    ),
  /** A partner failure is a result here (`ok: false`), not an error: it is what staff want to see. */
  testVerification: staffProcedure('admin')
    .input(testVerificationInput)
    .mutation(({ input }) => testVerification(input.partnerId, input.userEmail, getDb())),
  fetchFeedNow: staffProcedure('admin')
    .input(partnerIdInput)
    .mutation(({ input }) => fetchFeedNow(input.partnerId, getDb())),
  /** Fetches the feed and applies it to the catalogue now, like a scheduled run (recorded the same way). */
  pullFeedNow: staffProcedure('admin')
    .input(partnerIdInput)
    .mutation(({ input }) => pullFeed(input.partnerId, getDb())),
});

/**
 * Test mode: a live partner's test twin (its own partner row; its keys, pages and data work as
 * any partner's) and the wipe of its data. Test keys are created and revoked with `keys` on the twin's id.
 */
const testModeRouter = router({
  /** The live partner's test twin (null when it has none, or when the partner is itself a test partner). */
  get: partnerProcedure('read', 'read')
    .input(partnerIdInput)
    .query(async ({ input }) => {
      const twin = await testPartnerOf(input.partnerId, getDb());
      return twin && { id: twin.id, name: twin.name, createdAt: twin.createdAt };
    }),
  /**
   * Deletes every row of the test partner's data space in one transaction (a live partner is refused by
   * the first statement and nothing is deleted); recorded with how many rows each table lost.
   */
  wipe: partnerProcedure('admin', 'develop')
    .input(z.object({ testPartnerId: z.string().min(1).max(100) }))
    .mutation(({ input, ctx }) =>
      audited(
        async ({ tx }) => {
          const counts: WipeCounts = await wipeTestData(input.testPartnerId, tx);
          counts.idempotency_keys = await forgetTestIdempotencyKeys(input.testPartnerId, tx);
          return counts;
        },
        {
          actor: auditActorOf(ctx.actor),
          action: 'test_data.wiped',
          partnerId: input.testPartnerId,
          target: { type: 'partner', id: input.testPartnerId },
        },
        getDb(),
      ),
    ),
});

export const partnersRouter = router({
  /** A partner's user lists their own partner alone. */
  list: partnerProcedure('read', 'read', 'resolver')
    .input(listPartnersInput)
    .query(({ input, ctx }) =>
      listPartners(input, getDb(), ctx.actor.kind === 'partner_user' ? ctx.actor.member.partnerId : undefined),
    ),
  get: partnerProcedure('read', 'read')
    .input(partnerIdInput)
    .query(({ input }) => getPartner(input.partnerId, getDb())),
  /** Returns the partner and its two initial keys; the keys are shown once. */
  create: staffProcedure('admin')
    .input(createPartnerInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => createPartnerWithKeys(input.name, tx),
        {
          actor: staffActor(ctx.staff),
          action: 'partner.created',
          partnerId: (r) => r.partner.id,
          target: (r) => ({ type: 'partner', id: r.partner.id }),
          // The partner only: the two initial keys are in the answer, never in the record.
          after: (r) => ({ name: r.partner.name }),
        },
        getDb(),
      ),
    ),
  rename: staffProcedure('admin')
    .input(renamePartnerInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => renamePartner(input, tx),
        partnerChange(ctx.staff, input.partnerId, 'partner.renamed', ['name']),
        getDb(),
      ),
    ),
  /** The logo on every fan page of the partner (https only); an empty value removes it. */
  setLogo: staffProcedure('admin')
    .input(setPartnerLogoInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerLogo(input, tx),
        partnerChange(ctx.staff, input.partnerId, 'partner.logo.updated', ['logoUrl']),
        getDb(),
      ),
    ),
  /** The partner's support contact for fans (https page, e-mail); empty values fall back to Encore's. */
  setSupport: staffProcedure('admin')
    .input(setPartnerSupportInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerSupport(input, tx),
        partnerChange(ctx.staff, input.partnerId, 'partner.support.updated', ['supportUrl', 'supportEmail']),
        getDb(),
      ),
    ),
  /** Where fans may be sent back to (returnTo) and who may frame the embeddable fan pages; [] removes all. */
  setReturnOrigins: partnerProcedure('admin', 'develop')
    .input(setPartnerReturnOriginsInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerReturnOrigins(input, tx),
        partnerChange(ctx.actor, input.partnerId, 'partner.return_origins.updated', ['returnOrigins']),
        getDb(),
      ),
    ),
  /** Whose pages may call the API with the partner's publishable key (the widget; CORS); [] lets any origin. */
  setWidgetOrigins: partnerProcedure('admin', 'develop')
    .input(setPartnerWidgetOriginsInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerWidgetOrigins(input, tx),
        partnerChange(ctx.actor, input.partnerId, 'partner.widget_origins.updated', ['widgetOrigins']),
        getDb(),
      ),
    ),
  /** A disabled partner's keys answer 403; nothing is deleted and enabling again restores access. */
  setDisabled: staffProcedure('admin')
    .input(setPartnerDisabledInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPartnerDisabled(input, tx),
        partnerChange(ctx.staff, input.partnerId, input.disabled ? 'partner.disabled' : 'partner.enabled', [
          'disabledAt',
        ]),
        getDb(),
      ),
    ),
  /** The partner's default primary sales fee (used when ticket, option, show and event set none); null removes it. */
  setPrimarySalesFee: staffProcedure('admin')
    .input(setPrimarySalesFeeInput)
    .mutation(({ input, ctx }) =>
      audited(
        ({ tx }) => setPrimarySalesFee(input, tx),
        partnerChange(ctx.staff, input.partnerId, 'partner.fees.updated', ['primarySalesFee']),
        getDb(),
      ),
    ),
  keys: keysRouter,
  publishableKeys: publishableKeysRouter,
  integration: integrationRouter,
  testMode: testModeRouter,
});
