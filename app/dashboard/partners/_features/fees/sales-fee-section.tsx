'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useRef, useState } from 'react';
import { ActionForm, FormActions, type FormValues } from '@/components/ui/action-form';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, SelectField } from '@/components/ui/field';
import { useTypedValue } from '@/components/ui/use-typed-value';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import { PRIMARY_SALES_FEE_TYPES } from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import layout from '../../_shared/form-layout.module.css';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];
type FeeType = (typeof PRIMARY_SALES_FEE_TYPES)[number];

const DONE_LABEL = { saved: 'Saved.', removed: 'Removed.' } as const;
const TYPE_LABEL: Record<FeeType, string> = { FIXED: 'Fixed amount', PERCENTAGE: 'Percentage' };
const isFeeType = (v: string): v is FeeType => (PRIMARY_SALES_FEE_TYPES as readonly string[]).includes(v);

/** How a stored fee reads: "7.5%", "2.5 in each ticket's currency". */
function describeFee(fee: NonNullable<Partner['primarySalesFee']>): string {
  return fee.type === 'PERCENTAGE' ? `${fee.value}%` : `${fee.value} in each ticket’s currency`;
}

/** The stored default fee, in a sentence. */
function currentFee(fee: Partner['primarySalesFee']): string {
  return fee ? `Current default: ${describeFee(fee)}.` : 'No default fee set: such tickets carry no fee.';
}

/** The value as typed, checked like the server checks it, with a message staff can act on. */
function checkValue(type: FeeType, text: string): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'Enter a number, 0 or more' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { error: 'Enter a number, e.g. 2.5' };
  if (value < 0) return { error: 'Enter 0 or more' };
  if (type === 'PERCENTAGE' && value > 100) return { error: 'A percentage is at most 100' };
  return { value };
}

/**
 * The partner's default primary sales fee: what a ticket carries when neither the ticket, its ticket
 * option, its show nor its event sets one. An admin sets it here (other roles read it); partners set the
 * other levels through the API.
 */
export function SalesFeeSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: partner } = useSuspenseQuery(trpc.partners.get.queryOptions({ partnerId }));
  const stored = partner.primarySalesFee;
  const admin = useMay('admin');

  // The fields show what is stored (from the query: "2.50" comes back as 2.5) and start again from it once saved.
  const storedKey = stored ? `${stored.type}:${stored.value}` : 'none';
  const typed = useTypedValue<HTMLSelectElement>(stored?.type ?? 'PERCENTAGE');
  const type: FeeType = isFeeType(typed.value) ? typed.value : 'PERCENTAGE';
  const [localError, setLocalError] = useState<string | null>(null);
  const [done, setDone] = useState<'saved' | 'removed' | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const valueInput = useRef<HTMLInputElement>(null);

  const store = (next: Partner) => queryClient.setQueryData(trpc.partners.get.queryKey({ partnerId }), next);
  const save = useMutation(
    trpc.partners.setPrimarySalesFee.mutationOptions({
      onSuccess: (next) => {
        store(next);
        setDone('saved');
      },
    }),
  );
  const clear = useMutation(
    trpc.partners.setPrimarySalesFee.mutationOptions({
      onSuccess: (next) => {
        store(next);
        setConfirmClear(false);
        setDone('removed');
      },
    }),
  );

  function confirmRemove() {
    clear.mutate(
      { partnerId, primarySalesFee: null },
      {
        // The button that opened the dialog is gone: give focus to the form rather than the page.
        onSuccess: () => requestAnimationFrame(() => valueInput.current?.focus()),
      },
    );
  }

  const serverError = fieldErrors(save.error).primarySalesFee ?? null;
  const valueError = localError ?? serverError;

  function submit(values: FormValues) {
    setDone(null);
    clear.reset();
    const type = values.text('type');
    if (!isFeeType(type)) return;
    const checked = checkValue(type, values.text('value'));
    if ('error' in checked) {
      setLocalError(checked.error);
      valueInput.current?.focus();
      return;
    }
    setLocalError(null);
    save.mutate({ partnerId, primarySalesFee: { type, value: checked.value } });
  }

  function edited() {
    setDone(null);
    setLocalError(null);
  }

  return (
    <SectionCard
      data-testid="sales-fee"
      title="Primary sales fee"
      description="The partner’s default fee, used for a ticket when neither the ticket, its ticket option, its show nor its event sets one."
    >
      <div className="card-body">
        <p className="muted">{currentFee(stored)}</p>
        {admin && (
          <>
            <ActionForm
              onSubmit={submit}
              aria-label="Default primary sales fee"
              error={save.error}
              errorAtField={Boolean(serverError)}
            >
              <div className={layout.twoColumns}>
                <SelectField
                  key={`type:${storedKey}`}
                  label="Fee type"
                  name="type"
                  {...typed.field}
                  onChange={(e) => {
                    typed.field.onChange(e);
                    edited();
                  }}
                >
                  {PRIMARY_SALES_FEE_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TYPE_LABEL[t]}
                    </option>
                  ))}
                </SelectField>
                <Field
                  key={`value:${storedKey}`}
                  ref={valueInput}
                  label={type === 'PERCENTAGE' ? 'Value (%)' : 'Value (amount)'}
                  name="value"
                  type="number"
                  inputMode="decimal"
                  required
                  min={0}
                  max={type === 'PERCENTAGE' ? 100 : undefined}
                  step="any"
                  defaultValue={stored ? String(stored.value) : ''}
                  onChange={edited}
                  error={valueError}
                  hint={
                    type === 'PERCENTAGE'
                      ? 'From 0 to 100.'
                      : 'In major units of each ticket’s currency (2.5 is 2.50), 0 or more.'
                  }
                />
              </div>
              <FormActions submit="Save fee" pending={save.isPending} done={done && DONE_LABEL[done]}>
                {stored && (
                  <Button
                    onClick={() => {
                      clear.reset();
                      setConfirmClear(true);
                    }}
                    disabled={save.isPending}
                  >
                    Remove default fee
                  </Button>
                )}
              </FormActions>
            </ActionForm>
            <ConfirmDialog
              open={confirmClear}
              title="Remove the default fee?"
              description={
                <p>
                  Tickets whose ticket, ticket option, show and event set no fee will then carry none. Fees set through
                  the API stay as they are.
                </p>
              }
              confirmLabel="Remove fee"
              pendingLabel="Removing…"
              pending={clear.isPending}
              error={clear.error}
              onCancel={() => setConfirmClear(false)}
              onConfirm={confirmRemove}
            />
          </>
        )}
      </div>
    </SectionCard>
  );
}
