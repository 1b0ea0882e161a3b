'use client';

import { useActionState, useCallback, useId, useState } from 'react';
import { useFormStatus } from 'react-dom';
import { useLocale, useTranslations } from 'next-intl';
import { payoutPreviewMinor, type PayoutModel } from '@/server/modules/marketplace/schemas';
import { useTypedValue } from '@/components/ui/use-typed-value';
import { INTL_TAGS } from '@/server/lib/i18n/locale-codes';
import type { FormState } from './actions';

type Action = (prev: FormState, data: FormData) => Promise<FormState>;

function digitsOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

function useMoney(currency: string) {
  const locale = useLocale();
  const digits = digitsOf(currency);
  return {
    digits,
    format: (minor: number) => {
      try {
        return new Intl.NumberFormat(INTL_TAGS[locale], { style: 'currency', currency }).format(minor / 10 ** digits);
      } catch {
        return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
      }
    },
    /** The typed price in minor units, or null while it is not a number. */
    parse: (typed: string) => {
      const v = typed.replace(/\s/g, '').replace(',', '.');
      if (!/^\d+(\.\d+)?$/.test(v)) return null;
      return Math.round(Number(v) * 10 ** digits);
    },
  };
}

function SubmitButton({
  label,
  pendingLabel,
  variant = 'primary',
  disabled = false,
}: {
  label: string;
  pendingLabel: string;
  variant?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
}) {
  const { pending } = useFormStatus();
  const cls = variant === 'primary' ? 'mk-btn' : `mk-btn mk-btn-${variant}`;
  return (
    <button type="submit" className={`${cls} mk-btn-block`} disabled={pending || disabled} aria-disabled={pending}>
      {pending ? pendingLabel : label}
    </button>
  );
}

export interface SellableTicket {
  pk: string;
  label: string;
}

/**
 * The price field: the allowed range, the face value as a suggestion, and what the seller receives
 * after fees, recomputed as the fan types (the server recomputes and checks on submit).
 */
function PriceField({
  currency,
  faceMinor,
  range,
  model,
  count,
  error,
  defaultPrice,
}: {
  currency: string;
  faceMinor: number | null;
  range: string | null;
  model: PayoutModel;
  count: number;
  error?: string;
  defaultPrice: string;
}) {
  const t = useTranslations('sell');
  const id = useId();
  const m = useMoney(currency);
  // Uncontrolled: a price typed before the page hydrated is the one sent, and the payout follows it.
  const price = useTypedValue(defaultPrice);
  const minor = m.parse(price.value);
  const payout = minor === null ? null : payoutPreviewMinor(model, minor);
  return (
    <div className="mk-field">
      <label htmlFor={`${id}-price`}>{t('priceLabel', { currency })}</label>
      <input
        id={`${id}-price`}
        name="price"
        inputMode="decimal"
        autoComplete="off"
        required
        {...price.field}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        data-testid="price-input"
      />
      <p className="mk-hint" id={`${id}-hint`}>
        {range ? <span data-testid="price-range">{range} </span> : null}
        {faceMinor !== null ? (
          <>
            {t('faceValueHint', { face: m.format(faceMinor) })}{' '}
            <button
              type="button"
              className="mk-link-button"
              onClick={() => price.set((faceMinor / 10 ** m.digits).toFixed(m.digits))}
            >
              {t('useFaceValue')}
            </button>
          </>
        ) : null}
      </p>
      {error ? (
        <p className="mk-error" id={`${id}-error`} role="alert" data-testid="price-error">
          {error}
        </p>
      ) : null}
      <dl className="mk-breakdown sl-payout" aria-live="polite">
        <dt>{t('payoutLabel')}</dt>
        <dd data-testid="payout-preview">
          {payout === null ? '—' : m.format(payout * Math.max(count, 1))}
          {count > 1 && payout !== null ? <small> ({t('payoutPerTicket', { amount: m.format(payout) })})</small> : null}
        </dd>
      </dl>
    </div>
  );
}

/** The selling flow's form: which tickets (order sale), the price, the payout; confirm lists them. */
export function SellForm({
  action,
  ticketPk,
  partnerName,
  tickets,
  order,
  currency,
  faceMinor,
  range,
  model,
  returnTo,
}: {
  action: Action;
  ticketPk: string;
  partnerName: string;
  tickets: SellableTicket[];
  order: boolean;
  currency: string;
  faceMinor: number | null;
  range: string | null;
  model: PayoutModel;
  /** The partner's way back, carried to the next steps (the action checks it again). */
  returnTo: string | null;
}) {
  const t = useTranslations('sell');
  const [state, formAction] = useActionState(action, {});
  // The boxes are uncontrolled: the count follows them from what they hold when the page hydrates.
  const isChosen = (pk: string) => state.typed?.tickets?.includes(pk) ?? true;
  const [chosen, setChosen] = useState<string[]>(tickets.filter((x) => isChosen(x.pk)).map((x) => x.pk));
  const readChosen = useCallback((fieldset: HTMLFieldSetElement | null) => {
    if (!fieldset) return;
    const boxes = fieldset.querySelectorAll<HTMLInputElement>('input[name="tickets"]');
    setChosen(Array.from(boxes, (box) => (box.checked ? box.value : '')).filter(Boolean));
  }, []);
  const defaultPrice =
    state.typed?.price ??
    (faceMinor !== null ? (faceMinor / 10 ** digitsOf(currency)).toFixed(digitsOf(currency)) : '');
  return (
    <form action={formAction} className="sl-form" data-testid="sell-form" noValidate>
      <input type="hidden" name="ticketPk" value={ticketPk} />
      <input type="hidden" name="partnerName" value={partnerName} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      {order ? (
        <fieldset
          key={state.typed?.tickets?.join()}
          className="sl-choose"
          ref={readChosen}
          onChange={(e) => readChosen(e.currentTarget)}
        >
          <legend>{t('chooseLegend')}</legend>
          {tickets.map((x) => (
            <label key={x.pk} className="sl-check">
              <input type="checkbox" name="tickets" value={x.pk} defaultChecked={isChosen(x.pk)} />
              <span>{x.label}</span>
            </label>
          ))}
          <p className="mk-hint">{t('packHint')}</p>
        </fieldset>
      ) : (
        tickets.map((x) => <input key={x.pk} type="hidden" name="tickets" value={x.pk} />)
      )}
      <PriceField
        key={state.typed?.price}
        currency={currency}
        faceMinor={faceMinor}
        range={state.range ?? range}
        model={model}
        count={chosen.length}
        error={state.error}
        defaultPrice={defaultPrice}
      />
      <SubmitButton
        label={t('confirm', { count: chosen.length })}
        pendingLabel={t('listing')}
        disabled={chosen.length === 0}
      />
    </form>
  );
}

/** A new price for a listing (same range rules as listing it). */
export function RepriceForm({
  action,
  listingId,
  partnerName,
  currency,
  faceMinor,
  range,
  model,
  count,
  priceMajor,
  returnTo,
}: {
  action: Action;
  listingId: string;
  returnTo: string | null;
  partnerName: string;
  currency: string;
  faceMinor: number | null;
  range: string | null;
  model: PayoutModel;
  count: number;
  priceMajor: string;
}) {
  const t = useTranslations('listing');
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="sl-form" data-testid="reprice-form" noValidate>
      <input type="hidden" name="listingId" value={listingId} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <input type="hidden" name="partnerName" value={partnerName} />
      <PriceField
        currency={currency}
        faceMinor={faceMinor}
        range={state.range ?? range}
        model={model}
        key={state.typed?.price}
        count={count}
        error={state.error}
        defaultPrice={state.typed?.price ?? priceMajor}
      />
      <SubmitButton label={t('savePrice')} pendingLabel={t('saving')} variant="secondary" />
    </form>
  );
}

/** A one-button (or e-mail) form for a listing action; the domain's refusal is shown beside it. */
export function ListingActionForm({
  action,
  listingId,
  label,
  pendingLabel,
  variant = 'primary',
  hidden,
  emailLabel,
  testId,
}: {
  action: Action;
  listingId: string;
  label: string;
  pendingLabel: string;
  variant?: 'primary' | 'secondary' | 'danger';
  hidden?: Record<string, string>;
  emailLabel?: string;
  testId?: string;
}) {
  const [state, formAction] = useActionState(action, {});
  const id = useId();
  return (
    <form action={formAction} className="sl-form" data-testid={testId} noValidate>
      <input type="hidden" name="listingId" value={listingId} />
      {Object.entries(hidden ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {emailLabel ? (
        <div className="mk-field">
          <label htmlFor={`${id}-to`}>{emailLabel}</label>
          <input
            id={`${id}-to`}
            name="to"
            type="email"
            autoComplete="off"
            required
            defaultValue={state.typed?.to ?? ''}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? `${id}-error` : undefined}
          />
        </div>
      ) : null}
      {state.error ? (
        <p className="mk-error" id={`${id}-error`} role="alert" data-testid="action-error">
          {state.error}
        </p>
      ) : null}
      <SubmitButton label={label} pendingLabel={pendingLabel} variant={variant} />
    </form>
  );
}

/** The share link with a copy button (the link stays selectable without JS). */
export function CopyLink({ url }: { url: string }) {
  const t = useTranslations('sell');
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="mk-field">
      <label htmlFor={`${id}-share`}>{t('shareLabel')}</label>
      <div className="sl-copy">
        <input id={`${id}-share`} readOnly value={url} data-testid="share-url" onFocus={(e) => e.target.select()} />
        <button
          type="button"
          className="mk-btn mk-btn-secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? t('copied') : t('copy')}
        </button>
      </div>
      <p className="mk-hint" aria-live="polite">
        {copied ? t('copiedHint') : ''}
      </p>
    </div>
  );
}
