'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field, SelectField } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import layout from '../../_shared/form-layout.module.css';

type RuleType = 'RESALE_ENABLED' | 'LISTING_WINDOW' | 'PRICE_LIMITS' | 'MAX_TICKETS_PER_LISTING' | 'P2P_TRANSFER';

const TYPES: { value: RuleType; label: string }[] = [
  { value: 'RESALE_ENABLED', label: 'Resale on or off' },
  { value: 'LISTING_WINDOW', label: 'Listing window' },
  { value: 'PRICE_LIMITS', label: 'Price limits (% of face value)' },
  { value: 'MAX_TICKETS_PER_LISTING', label: 'Most tickets per listing' },
  { value: 'P2P_TRANSFER', label: 'Peer-to-peer transfer' },
];

/** A rule's values in words ("on", "opens 48 h before, closes 2 h before", "60–120 %"). */
function describeRule(type: string, rules: Record<string, unknown>): string {
  const n = (k: string) => (typeof rules[k] === 'number' ? (rules[k] as number) : undefined);
  switch (type) {
    case 'RESALE_ENABLED':
      return rules.enabled ? 'Resale on' : 'Resale off';
    case 'P2P_TRANSFER':
      return rules.allowed ? 'Transfer allowed' : 'Transfer not allowed';
    case 'LISTING_WINDOW':
      return (
        [
          n('opensHoursBeforeShow') !== undefined && `opens ${n('opensHoursBeforeShow')} h before the show`,
          n('closesHoursBeforeShow') !== undefined && `closes ${n('closesHoursBeforeShow')} h before the show`,
        ]
          .filter(Boolean)
          .join(', ') || 'open until the show'
      );
    case 'PRICE_LIMITS':
      return `${n('minPercentOfFace') ?? 0} % to ${n('maxPercentOfFace') !== undefined ? `${n('maxPercentOfFace')} %` : 'any'} of face value`;
    case 'MAX_TICKETS_PER_LISTING':
      return `at most ${n('max')} per listing`;
    default:
      return JSON.stringify(rules);
  }
}

const scopeOf = (r: { showId: string | null; ticketOptionId: string | null; priceTypeId: string | null }) =>
  [
    r.showId && `Show ${r.showId}`,
    r.ticketOptionId && `option ${r.ticketOptionId}`,
    r.priceTypeId && `price type ${r.priceTypeId}`,
  ]
    .filter(Boolean)
    .join(' · ') || 'Whole event';

interface Draft {
  showId: string;
  ticketOptionId: string;
  priceTypeId: string;
  ruleType: RuleType;
  flag: boolean;
  a: string;
  b: string;
  description: string;
}

const EMPTY: Draft = {
  showId: '',
  ticketOptionId: '',
  priceTypeId: '',
  ruleType: 'RESALE_ENABLED',
  flag: true,
  a: '',
  b: '',
  description: '',
};

function rulesOf(d: Draft): Record<string, unknown> {
  const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
  switch (d.ruleType) {
    case 'RESALE_ENABLED':
      return { enabled: d.flag };
    case 'P2P_TRANSFER':
      return { allowed: d.flag };
    case 'LISTING_WINDOW':
      return { opensHoursBeforeShow: num(d.a), closesHoursBeforeShow: num(d.b) };
    case 'PRICE_LIMITS':
      return { minPercentOfFace: num(d.a), maxPercentOfFace: num(d.b) };
    case 'MAX_TICKETS_PER_LISTING':
      return { max: num(d.a) };
  }
}

/** An event's resale rules, the partner's and staff's, and staff rules set or removed behind a confirmation. */
export function RulesEditor({ partnerId, eventRef }: { partnerId: string; eventRef: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.rules.ofEvent.queryOptions({ partnerId, eventRef }));
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState<(typeof data.rules)[number] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.rules.ofEvent.queryKey({ partnerId, eventRef }) });
  const save = useMutation(
    trpc.rules.save.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        setDraft(EMPTY);
        setDone('Staff rule saved.');
        await refresh();
      },
      onError: () => setConfirming(false),
    }),
  );
  const remove = useMutation(
    trpc.rules.delete.mutationOptions({
      onSuccess: async () => {
        setRemoving(null);
        setDone('Staff rule removed.');
        await refresh();
      },
    }),
  );
  const errors = fieldErrors(save.error);
  const show = data.shows.find((s) => s.showId === draft.showId);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setDone(null);
  };
  const input = {
    partnerId,
    eventRef,
    showId: draft.showId || undefined,
    ticketOptionId: draft.ticketOptionId || undefined,
    priceTypeId: draft.priceTypeId || undefined,
    ruleType: draft.ruleType,
    rules: rulesOf(draft),
    description: draft.description || undefined,
  };
  const numbers: Partial<Record<RuleType, [string, string?]>> = {
    LISTING_WINDOW: ['Opens (hours before the show)', 'Closes (hours before the show)'],
    PRICE_LIMITS: ['Lowest price (% of face value)', 'Highest price (% of face value)'],
    MAX_TICKETS_PER_LISTING: ['Most tickets per listing'],
  };
  const labels = numbers[draft.ruleType];

  return (
    <>
      <SectionCard
        data-testid="rules-list"
        title={`Rules of ${data.event.title}`}
        description="The most specific rule of a type wins; at the same scope a staff rule wins over the partner's."
      >
        {done ? (
          <p role="status" className="card-body">
            {done}
          </p>
        ) : null}
        {data.rules.length === 0 ? (
          <EmptyState
            title="No resale rules"
            description="Resale is open under the show's own settings until a rule says otherwise."
          />
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Resale rules">
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Type</th>
                  <th scope="col">Rule</th>
                  <th scope="col">Set by</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rules.map((r) => (
                  <tr key={r.id} data-testid="rule-row" data-source={r.source}>
                    <td>{scopeOf(r)}</td>
                    <td>{TYPES.find((t) => t.value === r.ruleType)?.label ?? r.ruleType}</td>
                    <td>{describeRule(r.ruleType, r.rules)}</td>
                    <td>
                      {r.source === 'STAFF' ? <Badge tone="warning">Staff</Badge> : <Badge>Partner</Badge>}{' '}
                      {r.overridden ? <Badge tone="danger">Overridden by staff</Badge> : null}
                      {r.updatedBy ? <span className="field-hint"> {r.updatedBy}</span> : null}
                    </td>
                    <td>
                      {r.source === 'STAFF' ? (
                        <Button size="sm" variant="danger" onClick={() => setRemoving(r)}>
                          Remove
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SectionCard>

      <SectionCard
        data-testid="rule-form"
        title="Set a staff rule"
        description="It replaces the partner's rule of the same scope and type until removed; the partner's stays stored."
      >
        <div className="card-body">
          <ActionForm
            onSubmit={() => {
              setDone(null);
              setConfirming(true);
            }}
            aria-label="Staff rule"
            error={save.error}
            errorAtField={Object.keys(errors).length > 0}
          >
            <div className={layout.twoColumns}>
              <SelectField
                label="Show"
                name="showId"
                value={draft.showId}
                onChange={(e) =>
                  setDraft((d) => ({ ...d, showId: e.target.value, ticketOptionId: '', priceTypeId: '' }))
                }
              >
                <option value="">Whole event</option>
                {data.shows.map((s) => (
                  <option key={s.showId} value={s.showId}>
                    {s.title} ({s.showId})
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Ticket option"
                name="ticketOptionId"
                value={draft.ticketOptionId}
                disabled={!show}
                onChange={(e) => set('ticketOptionId', e.target.value)}
              >
                <option value="">Any</option>
                {show?.ticketOptions.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.title} ({o.id})
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Price type"
                name="priceTypeId"
                value={draft.priceTypeId}
                disabled={!show}
                onChange={(e) => set('priceTypeId', e.target.value)}
              >
                <option value="">Any</option>
                {show?.priceTypes.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.title} ({p.id})
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Rule type"
                name="ruleType"
                value={draft.ruleType}
                onChange={(e) => setDraft((d) => ({ ...d, ruleType: e.target.value as RuleType, a: '', b: '' }))}
              >
                {TYPES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </SelectField>
              {draft.ruleType === 'RESALE_ENABLED' || draft.ruleType === 'P2P_TRANSFER' ? (
                <SelectField
                  label={draft.ruleType === 'RESALE_ENABLED' ? 'Resale' : 'Transfer'}
                  name="flag"
                  value={draft.flag ? 'yes' : 'no'}
                  onChange={(e) => set('flag', e.target.value === 'yes')}
                >
                  <option value="yes">{draft.ruleType === 'RESALE_ENABLED' ? 'On' : 'Allowed'}</option>
                  <option value="no">{draft.ruleType === 'RESALE_ENABLED' ? 'Off' : 'Not allowed'}</option>
                </SelectField>
              ) : null}
              {labels ? (
                <Field
                  label={labels[0]}
                  name="a"
                  inputMode="decimal"
                  value={draft.a}
                  onChange={(e) => set('a', e.target.value)}
                  error={errors.rules ?? null}
                />
              ) : null}
              {labels?.[1] ? (
                <Field
                  label={labels[1]}
                  name="b"
                  inputMode="decimal"
                  value={draft.b}
                  onChange={(e) => set('b', e.target.value)}
                />
              ) : null}
              <Field
                label="Note"
                name="description"
                value={draft.description}
                maxLength={300}
                hint="Why staff set it (shown to staff only)."
                onChange={(e) => set('description', e.target.value)}
                error={errors.description ?? null}
              />
            </div>
            <FormActions submit="Review rule" pending={save.isPending} />
          </ActionForm>
        </div>
      </SectionCard>

      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Set this staff rule?"
        description={
          <>
            <strong>
              {scopeOf({
                showId: input.showId ?? null,
                ticketOptionId: input.ticketOptionId ?? null,
                priceTypeId: input.priceTypeId ?? null,
              })}
            </strong>
            : {TYPES.find((t) => t.value === draft.ruleType)?.label} — {describeRule(draft.ruleType, input.rules)}. It
            applies at once to the selling flow and the access layer.
          </>
        }
        confirmLabel="Set rule"
        pendingLabel="Saving…"
        pending={save.isPending}
        error={save.error}
        onConfirm={() => save.mutate(input)}
        onCancel={() => setConfirming(false)}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this staff rule?"
        description={<>The partner&apos;s rule of this scope, if any, applies again at once.</>}
        confirmLabel="Remove rule"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate({ partnerId, ruleId: removing.id })}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

/** "Why is this ticket (not) sellable?": its status, the reasons, and per rule type the rule that wins. */
export function TicketExplainer({ partnerId, ticketId }: { partnerId: string; ticketId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.rules.explain.queryOptions({ partnerId, ticketId }));
  return (
    <SectionCard
      data-testid="explainer"
      title={`Ticket ${data.ticketId}: ${data.status.replace('_', ' ').toLowerCase()}`}
      description={`Event ${data.eventRef}, show ${data.showId}, option ${data.ticketOptionId}${data.priceTypeId ? `, price type ${data.priceTypeId}` : ''}; owner ${data.owner ?? 'unknown'}.`}
    >
      <div className="card-body">
        {data.codeShownAt ? (
          <p data-testid="explainer-code-shown">
            Its code was first shown to its holder on{' '}
            {new Date(data.codeShownAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.
          </p>
        ) : null}
        {data.reasons.length ? (
          <ul data-testid="explainer-reasons">
            {data.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : (
          <p>{data.status === 'SELLABLE' ? 'Nothing stops this ticket from being listed.' : null}</p>
        )}
        {data.rules.length ? (
          <table className="table" aria-label="Rules for this ticket">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Winning rule</th>
                <th scope="col">Also applies</th>
              </tr>
            </thead>
            <tbody>
              {data.rules.map((r) => (
                <tr key={r.ruleType} data-testid="explained-rule">
                  <td>{TYPES.find((t) => t.value === r.ruleType)?.label ?? r.ruleType}</td>
                  <td data-testid="winner">
                    {r.winner ? (
                      <>
                        {describeRule(r.ruleType, r.winner.rules)} ({r.winner.scope},{' '}
                        {r.winner.source === 'STAFF' ? 'staff' : 'partner'})
                      </>
                    ) : null}
                  </td>
                  <td>
                    {r.candidates
                      .filter((c) => c.id !== r.winner?.id)
                      .map(
                        (c) =>
                          `${describeRule(r.ruleType, c.rules)} (${c.scope}, ${c.source === 'STAFF' ? 'staff' : 'partner'})`,
                      )
                      .join('; ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No resale rule applies to this ticket.</p>
        )}
      </div>
    </SectionCard>
  );
}
