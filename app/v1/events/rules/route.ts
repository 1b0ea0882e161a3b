import { handle } from '@/server/http/route';
import { audited, keyActor } from '@/server/modules/audit';
import { applyRulesRoute } from '@/server/modules/catalog';
import { applyRules } from '@/server/modules/catalog';

/** The partner's own rules change with the request, and are recorded in the audit log in the same transaction. */
// The rules and their audit record commit with the Idempotency-Key's stored answer (a repeat would record twice).
export const POST = handle(applyRulesRoute, ({ partner, body, requestId, commit }) =>
  commit((work) =>
    audited(
      ({ tx }) => applyRules(partner.partnerId, body, tx),
      {
        actor: keyActor(partner),
        action: 'rules.applied',
        partnerId: partner.partnerId,
        target: {
          type: 'events',
          id: [...new Set(body.map((r) => r.externalReferenceEventId))].join(', ').slice(0, 200),
        },
        after: (applied) => ({ ...applied, rules: body }),
        requestId,
      },
      work,
    ),
  ),
);
