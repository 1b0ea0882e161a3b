'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useId, useState } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Button } from '@/components/ui/button';
import { Field, Input, UrlField } from '@/components/ui/field';
import { useTRPC } from '@/components/trpc/client';
import {
  FEED_INTERVAL_MINUTES,
  type VerificationFieldName,
  updateIntegrationInput,
  verificationFieldNames,
} from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import { apiResolver, fieldMessages, useDashboardForm } from '../../../_shared/api-form';
import layout from '../../_shared/form-layout.module.css';
import { HeaderFields } from '../../_shared/header-fields';
import styles from './integration-section.module.css';

type Settings = inferRouterOutputs<AppRouter>['partners']['integration']['get'];
type ErrorOf = (field: string) => string | null;

interface SettingsValues {
  partnerId: string;
  verificationUrl: string;
  verificationFieldMap: { from: string; to: VerificationFieldName }[];
  feedUrl: string;
  feedIntervalMinutes: string;
  authHeaderName: string;
  authHeaderValue: string;
  removeHeader: boolean;
}

const isFieldName = (v: string): v is VerificationFieldName =>
  (verificationFieldNames as readonly string[]).includes(v);

/** The form shows what was stored; the secret never comes back, so its input starts empty. */
const valuesOf = (settings: Settings): SettingsValues => ({
  partnerId: settings.partnerId,
  verificationUrl: settings.verificationUrl ?? '',
  verificationFieldMap: Object.entries(settings.verificationFieldMap).flatMap(([from, to]) =>
    isFieldName(to) ? [{ from, to }] : [],
  ),
  feedUrl: settings.feedUrl ?? '',
  feedIntervalMinutes: String(settings.feedIntervalMinutes),
  authHeaderName: settings.authHeaderName ?? '',
  authHeaderValue: '',
  removeHeader: false,
});

const inputOf = (v: SettingsValues) => ({
  partnerId: v.partnerId,
  verificationUrl: v.verificationUrl,
  verificationFieldMap: Object.fromEntries(v.verificationFieldMap.map((r) => [r.from.trim(), r.to])),
  feedUrl: v.feedUrl,
  feedIntervalMinutes: Number(v.feedIntervalMinutes),
  authHeaderName: v.removeHeader ? null : (v.authHeaderName ?? ''),
  // Empty keeps the stored secret; removing the header removes it.
  ...(v.removeHeader ? { authHeaderValue: null } : v.authHeaderValue ? { authHeaderValue: v.authHeaderValue } : {}),
});

const resolver = apiResolver(updateIntegrationInput, inputOf, (v) => {
  const text = v.feedIntervalMinutes;
  return {
    feedIntervalMinutes: text.trim() === '' || !Number.isInteger(Number(text)) ? 'Enter whole minutes' : undefined,
    verificationFieldMap: v.verificationFieldMap.some((r) => r.from.trim() === '')
      ? 'Enter the partner’s field name in every row, or remove the row'
      : undefined,
  };
});

/** Where Encore verifies tickets and reads the feed, and the auth header both calls carry. */
export function SettingsForm({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useDashboardForm<SettingsValues>({ defaultValues: valuesOf(settings), resolver });

  const update = useMutation(
    trpc.partners.integration.update.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.partners.integration.get.queryKey({ partnerId: settings.partnerId }), next);
        form.reset(valuesOf(next));
        setSaved(true);
      },
    }),
  );
  const { errorOf, atField } = fieldMessages(form.formState.errors, update.error);
  const submit = () => {
    setSaved(false);
    void form.handleSubmit((values) => update.mutate(inputOf(values)))();
  };

  return (
    <ActionForm onSubmit={submit} aria-label="Integration settings" error={update.error} errorAtField={atField}>
      <fieldset className={layout.group}>
        <legend className={layout.legend}>Ticket verification</legend>
        <UrlField
          label="Verification URL"
          placeholder="https://tickets.partner.example/encore"
          {...form.register('verificationUrl')}
          error={errorOf('verificationUrl')}
          hint={
            <>
              Encore calls{' '}
              <code className="mono">
                GET {'{URL}'}/tickets?user={'{e-mail}'}
              </code>{' '}
              before every sale.
            </>
          }
        />
        <FieldMapRows form={form} error={errorOf('verificationFieldMap')} />
      </fieldset>
      <FeedFields form={form} errorOf={errorOf} />
      <AuthHeaderFields form={form} errorOf={errorOf} settings={settings} />
      <FormActions submit="Save integration" pending={update.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

/** The partner's names for the verification answer's fields, one row per name, mapped to Encore's. */
function FieldMapRows({ form, error }: { form: UseFormReturn<SettingsValues>; error: string | null }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'verificationFieldMap' });
  const rows = useWatch({ control: form.control, name: 'verificationFieldMap' });
  const errorId = useId();

  return (
    <div
      className="field"
      role="group"
      aria-labelledby={`${errorId}-label`}
      aria-describedby={error ? errorId : `${errorId}-hint`}
    >
      <span className="field-label" id={`${errorId}-label`}>
        Field names <span className="field-optional">(optional)</span>
      </span>
      <p className="field-hint" id={`${errorId}-hint`}>
        When the partner’s answer names a field differently, map its name to Encore’s. Applies to the answer and to each
        ticket in it.
      </p>
      {fields.map((field, i) => (
        <div className={styles.mapRow} key={field.id}>
          <Input
            aria-label={`Partner field name, row ${i + 1}`}
            placeholder="e.g. email"
            maxLength={100}
            aria-invalid={error && rows[i]?.from.trim() === '' ? true : undefined}
            {...form.register(`verificationFieldMap.${i}.from`)}
            // A row's own value: rows shift when one above is removed.
            defaultValue={field.from}
          />
          <span className={styles.arrow} aria-hidden="true">
            →
          </span>
          <select
            className="input"
            aria-label={`Encore field, row ${i + 1}`}
            {...form.register(`verificationFieldMap.${i}.to`)}
            defaultValue={field.to}
          >
            {verificationFieldNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <Button size="sm" variant="ghost" aria-label={`Remove row ${i + 1}`} onClick={() => remove(i)}>
            Remove
          </Button>
        </div>
      ))}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
      <div>
        <Button
          size="sm"
          disabled={fields.length >= 30}
          onClick={() => {
            const used = new Set(rows.map((r) => r.to));
            append({ from: '', to: verificationFieldNames.find((n) => !used.has(n)) ?? verificationFieldNames[0] });
          }}
        >
          Add field name
        </Button>
      </div>
    </div>
  );
}

function FeedFields({ form, errorOf }: { form: UseFormReturn<SettingsValues>; errorOf: ErrorOf }) {
  return (
    <fieldset className={layout.group}>
      <legend className={layout.legend}>Event feed</legend>
      <div className={layout.twoColumns}>
        <UrlField
          label="Feed URL"
          placeholder="https://partner.example/feed.json"
          {...form.register('feedUrl')}
          error={errorOf('feedUrl')}
          hint="JSON with externalReferenceId and shows, or an array of such events."
        />
        <Field
          label="Read every (minutes)"
          type="number"
          inputMode="numeric"
          required
          min={FEED_INTERVAL_MINUTES.min}
          max={FEED_INTERVAL_MINUTES.max}
          step={1}
          {...form.register('feedIntervalMinutes')}
          error={errorOf('feedIntervalMinutes')}
          hint={`${FEED_INTERVAL_MINUTES.min} to ${FEED_INTERVAL_MINUTES.max} (one day).`}
        />
      </div>
    </fieldset>
  );
}

function AuthHeaderFields({
  form,
  errorOf,
  settings,
}: {
  form: UseFormReturn<SettingsValues>;
  errorOf: ErrorOf;
  settings: Settings;
}) {
  const removeHeader = useWatch({ control: form.control, name: 'removeHeader' });
  return (
    <fieldset className={layout.group}>
      <legend className={layout.legend}>Auth header</legend>
      <p className="field-hint">Sent with both calls so the partner knows it is Encore. The value is a secret.</p>
      <HeaderFields
        prefix="authHeader"
        placeholder="X-Encore-Token"
        maxLength={{ name: 100, value: 4096 }}
        inputs={{ name: form.register('authHeaderName'), value: form.register('authHeaderValue') }}
        errors={{ name: errorOf('authHeaderName'), value: errorOf('authHeaderValue') }}
        disabled={{ name: removeHeader, value: removeHeader }}
        stored={
          settings.authHeaderValueSet &&
          (settings.authHeaderValueHint ? `ends in ${settings.authHeaderValueHint.slice(1)}` : true)
        }
      />
      {(settings.authHeaderName || settings.authHeaderValueSet) && (
        <label className={styles.check}>
          <input type="checkbox" {...form.register('removeHeader')} />
          Remove the auth header (name and stored value) on save
        </label>
      )}
    </fieldset>
  );
}
