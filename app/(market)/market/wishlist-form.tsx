'use client';

import { useActionState } from 'react';
import { useFormStatus } from 'react-dom';
import { useTranslations } from 'next-intl';
import { wishlistAction, type WishlistState } from './actions';

function Submit() {
  const { pending } = useFormStatus();
  const t = useTranslations('wishlist');
  return (
    <button type="submit" className="mk-btn" disabled={pending} aria-disabled={pending}>
      {pending ? t('saving') : t('submit')}
    </button>
  );
}

/** The empty market's offer: leave an e-mail to hear when tickets of this show come up. */
export function WishlistForm({
  eventId,
  showId,
  email,
  partner,
}: {
  eventId: string;
  showId: string;
  email: string;
  partner: string;
}) {
  const t = useTranslations('wishlist');
  const [state, action] = useActionState<WishlistState, FormData>(wishlistAction, {});
  if (state.saved) {
    return (
      <p className="mk-success" role="status" data-testid="wishlist-saved">
        {t('saved', { email: state.saved })}
      </p>
    );
  }
  return (
    <form action={action} className="buy-wishlist" data-testid="wishlist-form" noValidate>
      <h3>{t('title')}</h3>
      <p className="mk-hint">{t('body', { partner })}</p>
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="showId" value={showId} />
      <div className="mk-field">
        <label htmlFor="wishlist-email">{t('email')}</label>
        <input
          id="wishlist-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={email}
          aria-invalid={state.error === 'invalidEmail' ? true : undefined}
          aria-describedby={state.error ? 'wishlist-error' : undefined}
        />
        {state.error ? (
          <p id="wishlist-error" className="mk-error" role="alert">
            {t(state.error)}
          </p>
        ) : null}
      </div>
      <Submit />
    </form>
  );
}
