'use client';

import { useMutation } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, SelectField } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import type { AppRouter } from '@/server/trpc/router';
import { useDashboardForm } from '../../../_shared/api-form';
import layout from '../../_shared/form-layout.module.css';
import { describeRule, type RuleType, scopeOf, TYPES } from './rule-words';

type Show = inferRouterOutputs<AppRouter>['rules']['ofEvent']['shows'][number];

interface Draft {
  showId: string;
  ticketOptionId: string;
  priceTypeId: string;
  ruleType: RuleType;
  /** On / allowed ('yes') or off / not allowed ('no'), for the two yes-or-no rule types. */
  flag: 'yes' | 'no';
  a: string;
  b: string;
  description: string;
}

const EMPTY: Draft = {
  showId: '',
  ticketOptionId: '',
  priceTypeId: '',
  ruleType: 'RESALE_ENABLED',
  flag: 'yes',
  a: '',
  b: '',
  description: '',
};

const NUMBERS: Partial<Record<RuleType, [string, string?]>> = {
  LISTING_WINDOW: ['Opens (hours before the show)', 'Closes (hours before the show)'],
  PRICE_LIMITS: ['Lowest price (% of face value)', 'Highest price (% of face value)'],
  MAX_TICKETS_PER_LISTING: ['Most tickets per listing'],
};

function rulesOf(d: Draft): Record<string, unknown> {
  const num = (v = '') => (v.trim() === '' ? undefined : Number(v));
  switch (d.ruleType) {
    case 'RESALE_ENABLED':
      return { enabled: d.flag === 'yes' };
    case 'P2P_TRANSFER':
      return { allowed: d.flag === 'yes' };
    case 'LISTING_WINDOW':
      return { opensHoursBeforeShow: num(d.a), closesHoursBeforeShow: num(d.b) };
    case 'PRICE_LIMITS':
      return { minPercentOfFace: num(d.a), maxPercentOfFace: num(d.b) };
    case 'MAX_TICKETS_PER_LISTING':
      return { max: num(d.a) };
  }
}

/*
 * The staff rule's schema (catalog's staffRuleInput) lives beside the database code, out of the
 * browser's reach, and a rule's body is checked against its type on the server: the form shows the
 * server's messages at their fields.
 */
const inputOf = (partnerId: string, eventRef: string, d: Draft) => ({
  partnerId,
  eventRef,
  showId: d.showId || undefined,
  ticketOptionId: d.ticketOptionId || undefined,
  priceTypeId: d.priceTypeId || undefined,
  ruleType: d.ruleType,
  rules: rulesOf(d),
  description: d.description || undefined,
});

/** A staff rule's scope, type and values, set after a confirmation that says it in words. */
export function StaffRuleForm({
  partnerId,
  eventRef,
  shows,
  onChange,
  onSaved,
}: {
  partnerId: string;
  eventRef: string;
  shows: Show[];
  onChange: () => void;
  onSaved: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const form = useDashboardForm<Draft>({ defaultValues: EMPTY });
  const [confirming, setConfirming] = useState(false);
  const save = useMutation(
    trpc.rules.save.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        form.reset(EMPTY);
        await onSaved();
      },
      onError: () => setConfirming(false),
    }),
  );
  const errors = fieldErrors(save.error);
  useWatch({ control: form.control });
  const draft = form.getValues();
  const input = inputOf(partnerId, eventRef, draft);

  return (
    <>
      <ActionForm
        onSubmit={() => {
          onChange();
          setConfirming(true);
        }}
        aria-label="Staff rule"
        // Any edit makes the last "saved" note stale.
        onChange={onChange}
        error={save.error}
        errorAtField={Object.keys(errors).length > 0}
      >
        <div className={layout.twoColumns}>
          <ScopeFields form={form} shows={shows} />
          <RuleFields form={form} errors={errors} />
        </div>
        <FormActions submit="Review rule" pending={save.isPending} />
      </ActionForm>
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
        onConfirm={() => save.mutate(inputOf(partnerId, eventRef, form.getValues()))}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

/** Where the rule applies: the whole event, a show, and within it a ticket option and a price type. */
function ScopeFields({ form, shows }: { form: UseFormReturn<Draft>; shows: Show[] }) {
  const showId = useWatch({ control: form.control, name: 'showId' });
  const show = shows.find((s) => s.showId === showId);
  return (
    <>
      <SelectField
        label="Show"
        {...form.register('showId', {
          // Another show has other options and price types.
          onChange: () => {
            form.setValue('ticketOptionId', '');
            form.setValue('priceTypeId', '');
          },
        })}
      >
        <option value="">Whole event</option>
        {shows.map((s) => (
          <option key={s.showId} value={s.showId}>
            {s.title} ({s.showId})
          </option>
        ))}
      </SelectField>
      {(
        [
          ['ticketOptionId', 'Ticket option', show?.ticketOptions],
          ['priceTypeId', 'Price type', show?.priceTypes],
        ] as const
      ).map(([name, label, choices]) => (
        <SelectField key={name} label={label} disabled={!show} {...form.register(name)}>
          <option value="">Any</option>
          {choices?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title} ({c.id})
            </option>
          ))}
        </SelectField>
      ))}
    </>
  );
}

/** The rule's type and its values: yes or no, or one or two numbers, and staff's note. */
function RuleFields({ form, errors }: { form: UseFormReturn<Draft>; errors: Record<string, string | undefined> }) {
  const ruleType = useWatch({ control: form.control, name: 'ruleType' });
  const labels = NUMBERS[ruleType];
  const resale = ruleType === 'RESALE_ENABLED';
  return (
    <>
      <SelectField
        label="Rule type"
        {...form.register('ruleType', {
          onChange: () => {
            form.setValue('a', '');
            form.setValue('b', '');
          },
        })}
      >
        {TYPES.map((t) => (
          <option key={t.value} value={t.value}>
            {t.label}
          </option>
        ))}
      </SelectField>
      {resale || ruleType === 'P2P_TRANSFER' ? (
        <SelectField label={resale ? 'Resale' : 'Transfer'} {...form.register('flag')}>
          <option value="yes">{resale ? 'On' : 'Allowed'}</option>
          <option value="no">{resale ? 'Off' : 'Not allowed'}</option>
        </SelectField>
      ) : null}
      {labels ? (
        <Field label={labels[0]} inputMode="decimal" {...form.register('a')} error={errors.rules ?? null} />
      ) : null}
      {labels?.[1] ? <Field label={labels[1]} inputMode="decimal" {...form.register('b')} /> : null}
      <Field
        label="Note"
        maxLength={300}
        hint="Why staff set it (shown to staff only)."
        {...form.register('description')}
        error={errors.description ?? null}
      />
    </>
  );
}
