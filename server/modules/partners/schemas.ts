import { z } from 'zod';
import { defineRoute } from '@/server/lib/contract';
import { whenField } from '@/server/lib/json-schema';
import { RETURN_ORIGINS_MAX } from '@/server/lib/return-origins';

/* ---------- Primary sales fee (ticket, ticket option, show, event; partner default) ---------- */

export const PRIMARY_SALES_FEE_TYPES = ['FIXED', 'PERCENTAGE'] as const;

const FEE_DESCRIPTION =
  'The primary sale’s fee. FIXED: `value` is an amount in major units of the ticket’s currency (its ticket ' +
  'option’s), 0 or more, stored as sent. PERCENTAGE: `value` is a percentage from 0 to 100. Resolved per ticket: ' +
  'the ticket’s fee, else its ticket option’s, else its show’s, else its event’s, else a partner default set by ' +
  'Encore staff.';

/**
 * `{ type, value }`, one schema for every level (the catalogue and tickets import it from here). Zod's own messages for
 * a bad type or a negative value, as tickets answered them before the catalogue took a fee too. A
 * PERCENTAGE over 100 is refused with the path `….primarySalesFee.value`. Unknown extra keys pass
 * (tickets keep their free-form objects as sent); the catalogue stores only `{ type, value }`.
 */
export const primarySalesFeeSchema = z
  .looseObject({ type: z.enum(PRIMARY_SALES_FEE_TYPES), value: z.number().min(0) })
  .superRefine((fee, ctx) => {
    if (fee.type === 'PERCENTAGE' && typeof fee.value === 'number' && fee.value > 100) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be at most 100 for a PERCENTAGE fee' });
    }
  })
  .meta({
    id: 'PrimarySalesFeeInput',
    description: FEE_DESCRIPTION,
    ...whenField('type', 'PERCENTAGE', { properties: { value: { maximum: 100 } } }),
  });

export const primarySalesFeeResponse = z
  .object({ type: z.enum(PRIMARY_SALES_FEE_TYPES), value: z.number() })
  .meta({ id: 'PrimarySalesFee', description: FEE_DESCRIPTION });

export const PARTNER_NAME_MAX = 100;
export const partnerName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(PARTNER_NAME_MAX, `Name is at most ${PARTNER_NAME_MAX} characters`);

export const createPartnerInput = z.object({ name: partnerName });
export const renamePartnerInput = z.object({ partnerId: z.string().min(1), name: partnerName });
export const PARTNER_LOGO_URL_MAX = 2000;
/**
 * Both fan-facing URLs share one limit (fanFacingHttpsUrl); the form names each field's own.
 * @alias
 */
export const PARTNER_SUPPORT_URL_MAX = PARTNER_LOGO_URL_MAX;
/** An https URL fans' browsers open or load (no credentials in it), at most 2,000 characters; `what` names it. */
function fanFacingHttpsUrl(what: string) {
  return z
    .string()
    .trim()
    .max(PARTNER_LOGO_URL_MAX, `The ${what} URL is at most ${PARTNER_LOGO_URL_MAX} characters`)
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return u.protocol === 'https:' && u.hostname.length > 0 && !u.username && !u.password;
        } catch {
          return false;
        }
      },
      `The ${what} ${what === 'logo' ? 'must be' : 'URL must be'} an https:// URL`,
    );
}

/** The partner's logo on every fan page: an https image URL (fans' browsers load it), or null to remove it. */
const partnerLogoUrl = fanFacingHttpsUrl('logo').nullable();
export const setPartnerLogoInput = z.object({
  partnerId: z.string().min(1),
  // An empty field clears the logo.
  logoUrl: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), partnerLogoUrl),
});
export type SetPartnerLogoInput = z.input<typeof setPartnerLogoInput>;

/** Empty input means "none": the form sends '' for a cleared field. */
const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
/**
 * The partner's support contact for fans (the guarantee block, the terms page, the buyer's mail): a help
 * page (https, fans' browsers open it) and/or an e-mail. Both unset: fans are given Encore's own address.
 */
export const setPartnerSupportInput = z.object({
  partnerId: z.string().min(1),
  supportUrl: z.preprocess(emptyToNull, fanFacingHttpsUrl('support').nullable()),
  supportEmail: z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .max(320, 'The support e-mail is at most 320 characters')
      .pipe(z.email('The support e-mail must be an e-mail address, like help@example.com'))
      .nullable(),
  ),
});
export type SetPartnerSupportInput = z.input<typeof setPartnerSupportInput>;
/** A list of origins as staff typed them, one per line; blank lines are dropped, at most RETURN_ORIGINS_MAX. */
const originList = z
  .array(z.string().trim().max(300, 'An origin is at most 300 characters'), {
    error: 'A list of origins is required',
  })
  .transform((list) => list.filter((v) => v !== ''))
  .pipe(z.array(z.string()).max(RETURN_ORIGINS_MAX, `At most ${RETURN_ORIGINS_MAX} origins`));

/**
 * The partner's allowed return origins, as staff typed them; blank lines are dropped. Each is
 * checked and normalised by setPartnerReturnOrigins (whether http on loopback is allowed is the server's
 * setting, not something this schema, also bundled into the dashboard, may read).
 */
export const setPartnerReturnOriginsInput = z.object({
  partnerId: z.string().min(1),
  returnOrigins: originList,
});
export type SetPartnerReturnOriginsInput = z.input<typeof setPartnerReturnOriginsInput>;
/**
 * The origins whose pages may call the API with the partner's publishable key (the widget; CORS), checked
 * and normalised like return origins by setPartnerWidgetOrigins. Empty: any origin.
 */
export const setPartnerWidgetOriginsInput = z.object({
  partnerId: z.string().min(1),
  widgetOrigins: originList,
});
export type SetPartnerWidgetOriginsInput = z.input<typeof setPartnerWidgetOriginsInput>;
export const setPartnerDisabledInput = z.object({ partnerId: z.string().min(1), disabled: z.boolean() });

export const listPartnersInput = z.object({
  search: z.string().trim().max(120).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

/** The secret kinds (`sk_…`): created and revoked one by one by staff, several active at once. */
export const apiKeyKind = z.enum(['partner', 'channels']);
export type SecretKeyKind = z.infer<typeof apiKeyKind>;
/** Every kind of key: the secret ones and the widget's publishable key (`pk_…`, one active, rotated). */
export type ApiKeyKind = SecretKeyKind | 'publishable';

/** A partner's mode: `live`, or `test` for a live partner's test twin (keys `sk_test_…`, sandbox payments). */
export const partnerMode = z.enum(['live', 'test']);
export type PartnerMode = z.infer<typeof partnerMode>;

export const createApiKeyInput = z.object({
  partnerId: z.string().min(1),
  kind: apiKeyKind.default('partner'),
  label: z.string().trim().max(80).default(''),
  /** The channel a channels key opens the Channels API as (default: the partner's first channel). */
  channelId: z.string().min(1).optional(),
});

const channelName = z.string().trim().min(1, 'Name is required').max(120);
const channelWebhookUrl = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v),
  z.string().max(2000).nullable().default(null),
);

export const createChannelInput = z.object({
  partnerId: z.string().min(1),
  name: channelName,
  webhookUrl: channelWebhookUrl,
});
export type CreateChannelInput = z.input<typeof createChannelInput>;

export const updateChannelInput = z.object({
  partnerId: z.string().min(1),
  channelId: z.string().min(1),
  name: channelName,
  webhookUrl: channelWebhookUrl,
});
export type UpdateChannelInput = z.input<typeof updateChannelInput>;

export const setChannelDisabledInput = z.object({
  partnerId: z.string().min(1),
  channelId: z.string().min(1),
  disabled: z.boolean(),
});
export type SetChannelDisabledInput = z.input<typeof setChannelDisabledInput>;

export const revokeApiKeyInput = z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) });
/** Rotating names the key staff saw: a second rotation of the same key is a 409, never a second new key. */
export const rotatePublishableKeyInput = z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) });
export type RotatePublishableKeyInput = z.input<typeof rotatePublishableKeyInput>;

const keyOwnerFields = {
  partnerId: z.string().meta({ example: 'ptr_7Qm2kX9aB4cD5eF6gH7i' }),
  name: z.string(),
  keyPrefix: z.string().meta({ description: 'Visible start of the key used for this call', example: 'sk_live_Ab3dEf' }),
  keyKind: apiKeyKind,
  mode: partnerMode.meta({
    description:
      "`live`, or `test` for a test key (`sk_test_…`, `sk_test_ch_…`): the partner's test twin, a data space of its own that live keys never see (and the reverse), whose payments always use the sandbox",
    example: 'live',
  }),
};

/** What `GET /v1/channels/me` answers: which partner and key a Channels API key is. */
export const channelsMeResponse = z
  .object({
    ...keyOwnerFields,
    channelId: z.string().meta({ description: 'The channel this key belongs to', example: 'chn_4kT9wQ2mZ8xY1vB3nR5s' }),
    channelName: z.string().meta({ example: 'Resale Hub' }),
  })
  .meta({ id: 'ChannelsMe' });

/** What `GET /v1/me` answers: enough for a partner to check which key it is using, and its resale entry link. */
const meResponse = z
  .object({
    ...keyOwnerFields,
    resaleEntryUrl: z.url().meta({
      description:
        "The partner's static resale entry page: one generic link for its site or app, where a fan signs in and sees all their tickets of this partner with each one's sell status",
      example: 'https://encore.example.com/resale/ptr_7Qm2kX9aB4cD5eF6gH7i',
    }),
  })
  .meta({ id: 'Me' });

/**
 * The partner's default primary sales fee, set by staff: the last step of the fee resolution order
 * (ticket, ticket option, show, event, partner). Same schema as the partner API's; `null` removes it.
 */
export const setPrimarySalesFeeInput = z.object({
  partnerId: z.string().min(1),
  primarySalesFee: primarySalesFeeSchema.nullable(),
});

export type CreatePartnerInput = z.infer<typeof createPartnerInput>;
export type RenamePartnerInput = z.input<typeof renamePartnerInput>;
export type SetPartnerDisabledInput = z.input<typeof setPartnerDisabledInput>;
export type SetPrimarySalesFeeInput = z.input<typeof setPrimarySalesFeeInput>;
export type ListPartnersInput = z.input<typeof listPartnersInput>;

export const meRoute = defineRoute({
  method: 'GET',
  path: '/v1/me',
  operationId: 'getMe',
  tag: 'Authentication',
  summary: 'The calling partner',
  description: 'Answers which partner the presented API key belongs to. Use it to check a key.',
  auth: 'partner',
  response: meResponse,
  examples: {
    response: {
      partnerId: 'ptr_7Qm2kX9aB4cD5eF6gH7i',
      name: 'Andes Tickets',
      keyPrefix: 'sk_live_Ab3dEf',
      keyKind: 'partner',
      mode: 'live',
      resaleEntryUrl: 'https://encore.example.com/resale/ptr_7Qm2kX9aB4cD5eF6gH7i',
    },
  },
});

/* ---------- Integration: how Encore calls the partner's servers ---------- */

/** Our names of the verification answer's fields; a partner's field map may only point at these. */
export const verificationFieldNames = [
  'userEmail',
  'tickets',
  'ticketId',
  'externalReferenceEventId',
  'showId',
  'ticketOptionId',
  'price',
  'currency',
  'status',
  'tags',
] as const;
export type VerificationFieldName = (typeof verificationFieldNames)[number];

export const FEED_INTERVAL_MINUTES = { min: 1, max: 1440, default: 15 } as const;

/** Header names Encore sets itself or that belong to the connection; a partner auth header may not replace them. */
const RESERVED_HEADER_NAMES = new Set([
  'accept',
  'cache-control',
  'connection',
  'content-length',
  'content-type',
  'host',
  'keep-alive',
  'pragma',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
]);

/** Empty input means "none": forms send '' for a cleared URL. */
const optionalUrl = z
  .string()
  .trim()
  .max(2048, 'URL is at most 2048 characters')
  .transform((v) => (v === '' ? null : v))
  .nullable();

const verificationFieldMap = z
  .record(
    z.string().trim().min(1, 'Partner field name is required').max(100, 'Partner field name is at most 100 characters'),
    z.enum(verificationFieldNames, { error: `Map to one of: ${verificationFieldNames.join(', ')}` }),
  )
  .superRefine((map, ctx) => {
    const entries = Object.entries(map);
    if (entries.length > 30) ctx.addIssue({ code: 'custom', message: 'At most 30 field mappings' });
    const seen = new Map<string, string>();
    for (const [from, to] of entries) {
      const other = seen.get(to);
      if (other !== undefined) {
        ctx.addIssue({ code: 'custom', path: [from], message: `Both “${other}” and “${from}” map to ${to}` });
      }
      seen.set(to, from);
    }
  });

const headerName = z
  .string()
  .trim()
  .max(100, 'Header name is at most 100 characters')
  .refine((v) => v === '' || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v), 'Not a valid HTTP header name')
  .refine((v) => !RESERVED_HEADER_NAMES.has(v.toLowerCase()), 'Encore sets this header itself; choose another name')
  .transform((v) => (v === '' ? null : v))
  .nullable();

/**
 * Update of a partner's integration settings. Every field is optional: an omitted field keeps its
 * stored value, `null` (or '' for text) clears it. For the secret header value that means: omit it to
 * keep the stored secret, send null to remove it.
 */
export const updateIntegrationInput = z.object({
  partnerId: z.string().min(1),
  verificationUrl: optionalUrl.optional(),
  verificationFieldMap: verificationFieldMap.optional(),
  feedUrl: optionalUrl.optional(),
  feedIntervalMinutes: z
    .number({ error: 'Enter a number of minutes' })
    .int('Whole minutes only')
    .min(FEED_INTERVAL_MINUTES.min, `At least ${FEED_INTERVAL_MINUTES.min} minute`)
    .max(FEED_INTERVAL_MINUTES.max, `At most ${FEED_INTERVAL_MINUTES.max} minutes (one day)`)
    .optional(),
  authHeaderName: headerName.optional(),
  authHeaderValue: z
    .string()
    .trim()
    .min(1, 'Enter the header value, or remove it')
    .max(4096, 'Header value is at most 4096 characters')
    .regex(/^[\x20-\x7e\t]+$/, 'Header values may contain printable ASCII characters only')
    .nullable()
    .optional(),
});
export type UpdateIntegrationInput = z.input<typeof updateIntegrationInput>;

export const testVerificationInput = z.object({
  partnerId: z.string().min(1),
  userEmail: z.string().trim().max(320, 'E-mail is at most 320 characters').pipe(z.email('Enter an e-mail address')),
});
