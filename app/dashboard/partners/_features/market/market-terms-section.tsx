'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { Field } from '@/components/ui/field';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { marketTermsInput } from '@/server/modules/marketplace/schemas';
import { apiResolver, fieldMessages, useDashboardForm } from '../../../_shared/api-form';
import layout from '../../_shared/form-layout.module.css';
import { marketPath } from '../../_shared/paths';

type TermName = 'buyerFeePercent' | 'buyerFeeFixed' | 'sellerFeePercent' | 'sellerFeeFixed' | 'payoutDelayDays';

/** The fields, with the bounds the API's schema (marketTermsInput) checks, for the inputs' own min/max. */
const FIELDS: { name: TermName; label: string; hint: string; max: number; whole?: boolean }[] = [
  { name: 'buyerFeePercent', label: 'Buyer fee (%)', hint: 'Of each ticket’s price, 0 to 100.', max: 100 },
  { name: 'buyerFeeFixed', label: 'Buyer fee (fixed)', hint: 'Per ticket, in its currency’s major units.', max: 1e6 },
  { name: 'sellerFeePercent', label: 'Seller fee (%)', hint: 'Of each ticket’s price, 0 to 100.', max: 100 },
  { name: 'sellerFeeFixed', label: 'Seller fee (fixed)', hint: 'Per ticket, in its currency’s major units.', max: 1e6 },
  { name: 'payoutDelayDays', label: 'Payout delay (days)', hint: 'After the show, 0 to 365.', max: 365, whole: true },
];

type TermValues = Record<TermName, string> & { partnerId: string };

const inputOf = (values: TermValues) => ({
  partnerId: values.partnerId,
  ...(Object.fromEntries(FIELDS.map((f) => [f.name, Number(values[f.name].trim())])) as Record<TermName, number>),
});

/** The API's schema checks the numbers; the form alone can get a blank or a non-number wrong. */
const resolver = apiResolver(marketTermsInput, inputOf, (values) =>
  Object.fromEntries(
    FIELDS.map((f) => {
      const text = values[f.name].trim();
      return [f.name, text === '' || !Number.isFinite(Number(text)) ? 'Enter a number, 0 or more' : undefined];
    }),
  ),
);

/**
 * The partner's market terms: what buyers pay on top of the price, what sellers give up, and how long
 * after the show sellers are paid. New listings and purchases use them; agreed amounts stay as they were.
 * Only an admin changes them: other roles read them.
 */
export function MarketTermsSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: terms } = useSuspenseQuery(trpc.market.terms.get.queryOptions({ partnerId }));
  const asText = (t: typeof terms): TermValues => ({
    partnerId,
    ...(Object.fromEntries(FIELDS.map((f) => [f.name, String(t[f.name])])) as Record<TermName, string>),
  });
  const form = useDashboardForm<TermValues>({ defaultValues: asText(terms), resolver });
  const [done, setDone] = useState(false);
  const admin = useMay('admin');

  const save = useMutation(
    trpc.market.terms.set.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.market.terms.get.queryKey({ partnerId }), next);
        form.reset(asText(next));
        setDone(true);
      },
    }),
  );
  const { errorOf, atField } = fieldMessages(form.formState.errors, save.error);
  const submit = () => {
    setDone(false);
    // The first field with a problem takes the focus (react-hook-form's shouldFocusError).
    void form.handleSubmit((values) => save.mutate(inputOf(values)))();
  };

  return (
    <SectionCard
      data-testid="market-terms"
      title="Market terms"
      description="Fees on resale and when sellers are paid. New listings and purchases use them; amounts already agreed stay."
      actions={<ButtonLink href={marketPath(partnerId)}>Open the market</ButtonLink>}
    >
      <div className="card-body">
        {!admin ? (
          <DetailList>
            {FIELDS.map((f) => (
              <Detail key={f.name} term={f.label}>
                {terms[f.name]}
              </Detail>
            ))}
          </DetailList>
        ) : (
          <ActionForm
            id="market-terms"
            onSubmit={submit}
            aria-label="Market terms"
            error={save.error}
            errorAtField={atField}
          >
            <div className={layout.twoColumns}>
              {FIELDS.map((f) => (
                <Field
                  key={f.name}
                  label={f.label}
                  type="number"
                  inputMode="decimal"
                  required
                  min={0}
                  max={f.max}
                  step={f.whole ? 1 : 'any'}
                  {...form.register(f.name, {
                    onChange: () => {
                      form.clearErrors(f.name);
                      setDone(false);
                    },
                  })}
                  error={errorOf(f.name)}
                  hint={f.hint}
                />
              ))}
            </div>
            <FormActions submit="Save terms" pending={save.isPending} done={done ? 'Saved.' : null} />
          </ActionForm>
        )}
      </div>
    </SectionCard>
  );
}
