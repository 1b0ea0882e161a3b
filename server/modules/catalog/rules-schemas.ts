import { z } from 'zod';
import { inputJsonSchema, whenField } from '@/server/lib/json-schema';
import { priceSchema } from './schemas';

/**
 * Rule types of `POST /v1/events/rules`. `COMBINATION` is the spec's; the others are Encore's
 * resale-eligibility rules (the spec leaves `rules` open), evaluated by the access layer and the
 * selling flow. A rule applies to the scope it names — event; show (`showId`); a show's ticket option
 * (`ticketOptionId`), price type (`priceTypeId`) or both — and the most specific rule of a type wins:
 * option + price type, then option, then price type, then show, then event.
 */
export const resaleRuleBodies = {
  RESALE_ENABLED: z.object({ enabled: z.boolean() }).meta({ description: 'Resale on or off' }),
  LISTING_WINDOW: z
    .object({
      opensHoursBeforeShow: z.number().min(0).optional().meta({
        description: 'Listing opens this many hours before the show (absent: as soon as the ticket is known)',
      }),
      closesHoursBeforeShow: z
        .number()
        .min(0)
        .optional()
        .meta({ description: 'Listing closes this many hours before the show' }),
    })
    .refine(
      (r) =>
        r.opensHoursBeforeShow === undefined ||
        r.closesHoursBeforeShow === undefined ||
        r.opensHoursBeforeShow > r.closesHoursBeforeShow,
      {
        message: 'opensHoursBeforeShow must be greater than closesHoursBeforeShow',
        path: ['opensHoursBeforeShow'],
      },
    ),
  PRICE_LIMITS: z
    .object({
      minPercentOfFace: z.number().min(0).optional().meta({ description: 'Lowest resale price, % of face value' }),
      maxPercentOfFace: z.number().positive().optional().meta({ description: 'Highest resale price, % of face value' }),
    })
    .refine(
      (r) =>
        r.minPercentOfFace === undefined ||
        r.maxPercentOfFace === undefined ||
        r.minPercentOfFace <= r.maxPercentOfFace,
      {
        message: 'minPercentOfFace must not exceed maxPercentOfFace',
        path: ['minPercentOfFace'],
      },
    ),
  MAX_TICKETS_PER_LISTING: z.object({ max: z.number().int().min(1) }),
  P2P_TRANSFER: z.object({ allowed: z.boolean() }).meta({ description: 'Peer-to-peer transfer allowed' }),
} as const;

export type ResaleRuleType = keyof typeof resaleRuleBodies;
const RULE_TYPES = ['COMBINATION', ...(Object.keys(resaleRuleBodies) as ResaleRuleType[])] as const;

export const ruleItemSchema = z
  .object({
    externalReferenceEventId: z.string().min(1).max(200),
    showId: z.string().min(1).max(200).optional(),
    ticketOptionId: z.string().min(1).max(200).optional(),
    priceTypeId: z.string().min(1).max(200).optional(),
    price: priceSchema.optional(),
    // A string checked below rather than an enum: an unknown type answers its own message.
    ruleType: z
      .string()
      .min(1)
      .meta({ description: `One of ${RULE_TYPES.join(', ')}`, enum: [...RULE_TYPES] }),
    rules: z.record(z.string(), z.unknown()).optional(),
    description: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (!(RULE_TYPES as readonly string[]).includes(r.ruleType)) {
      ctx.addIssue({ code: 'custom', path: ['ruleType'], message: `must be one of ${RULE_TYPES.join(', ')}` });
      return;
    }
    if (r.ruleType === 'COMBINATION') {
      for (const f of ['showId', 'ticketOptionId', 'priceTypeId'] as const) {
        if (!r[f]) ctx.addIssue({ code: 'custom', path: [f], message: 'is required for a COMBINATION' });
      }
      return;
    }
    if ((r.ticketOptionId || r.priceTypeId) && !r.showId) {
      ctx.addIssue({ code: 'custom', path: ['showId'], message: 'is required with ticketOptionId or priceTypeId' });
    }
    const body = resaleRuleBodies[r.ruleType as ResaleRuleType].safeParse(r.rules ?? {});
    if (!body.success) {
      for (const issue of body.error.issues)
        ctx.addIssue({ code: 'custom', path: ['rules', ...issue.path], message: issue.message });
    }
  })
  .meta({
    id: 'RuleInput',
    // The refinement above, as JSON Schema says it (a LISTING_WINDOW's and a PRICE_LIMITS' two bounds compared
    // stay in the description of their types).
    allOf: [
      // `if`/`then` rather than `dependentRequired`: read alike by draft-07 validators (Prism's default).
      { if: { required: ['ticketOptionId'] }, then: { required: ['showId'] } },
      { if: { required: ['priceTypeId'] }, then: { required: ['showId'] } },
      whenField('ruleType', 'COMBINATION', { required: ['showId', 'ticketOptionId', 'priceTypeId'] }),
      ...(Object.keys(resaleRuleBodies) as ResaleRuleType[]).map((type) => {
        const body = inputJsonSchema(resaleRuleBodies[type]);
        // `rules` may be left out where the type's body needs nothing (it is read as `{}`).
        const needed = Array.isArray(body.required) && body.required.length > 0;
        return whenField('ruleType', type, { ...(needed ? { required: ['rules'] } : {}), properties: { rules: body } });
      }),
    ],
  });

export const rulesRequestSchema = z
  .array(ruleItemSchema)
  .min(1, 'at least one rule is required')
  .max(1000, 'at most 1000 rules per request');
export type RuleItem = z.output<typeof ruleItemSchema>;

export const rulesResponse = z
  .object({
    applied: z.number().int(),
    combinations: z.number().int().meta({ description: 'COMBINATION rules among them' }),
  })
  .meta({ id: 'RulesApplied' });
