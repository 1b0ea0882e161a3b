'use client';

import { useActionState } from 'react';
import { useFormStatus } from 'react-dom';
import { useTranslations } from 'next-intl';
import { payAction, type PayState } from '../market/actions';

function PayButton({ label }: { label: string }) {
  const { pending } = useFormStatus();
  const t = useTranslations('checkout');
  return (
    <button type="submit" className="mk-btn mk-btn-block" disabled={pending} aria-disabled={pending} data-testid="pay">
      {pending ? t('paying') : label}
    </button>
  );
}

/** The checkout's one action: the buyer's e-mail (unless signed in) and "Pay", which holds the tickets. */
export function CheckoutForm({
  listings,
  fanEmail,
  returnTo,
  payLabel,
  marketHref,
}: {
  listings: string;
  fanEmail: string | null;
  returnTo: string | null;
  payLabel: string;
  marketHref: string;
}) {
  const t = useTranslations('checkout');
  const [state, action] = useActionState<PayState, FormData>(payAction, {});
  const gone = state.error === 'taken' || state.error === 'unavailable' || state.error === 'ownListing';
  return (
    <form action={action} noValidate data-testid="checkout-form">
      <input type="hidden" name="listings" value={listings} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      {gone ? (
        <div className="mk-alert" role="alert" data-testid="checkout-error">
          <p>{t(state.error === 'ownListing' ? 'ownListing' : state.error === 'taken' ? 'taken' : 'unavailable')}</p>
          <a href={marketHref}>{t('backToMarket')}</a>
        </div>
      ) : state.error === 'failed' ? (
        <p className="mk-alert" role="alert">
          {t('failed')}
        </p>
      ) : null}
      {fanEmail ? (
        <p className="mk-hint" data-testid="buyer-fan">
          {t('signedIn', { email: fanEmail })}
        </p>
      ) : (
        <div className="mk-field">
          <label htmlFor="buyer-email">{t('email')}</label>
          <input
            id="buyer-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={state.email ?? ''}
            aria-invalid={state.error === 'invalidEmail' ? true : undefined}
            aria-describedby={
              state.error === 'invalidEmail' ? 'buyer-email-hint buyer-email-error' : 'buyer-email-hint'
            }
          />
          <p id="buyer-email-hint" className="mk-hint">
            {t('emailHint')}
          </p>
          {state.error === 'invalidEmail' ? (
            <p id="buyer-email-error" className="mk-error" role="alert">
              {t('invalidEmail')}
            </p>
          ) : null}
        </div>
      )}
      <div className="mk-sticky">
        <PayButton label={payLabel} />
      </div>
    </form>
  );
}
