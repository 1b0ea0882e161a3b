'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useRef } from 'react';
import { useFormStatus } from 'react-dom';
import { sendSignInLink, type SignInLinkState } from './actions';

function SubmitButton() {
  const { pending } = useFormStatus();
  const t = useTranslations('fanSignin');
  return (
    <button type="submit" className="mk-btn mk-btn-block" disabled={pending} aria-disabled={pending}>
      {pending ? t('sending') : t('send')}
    </button>
  );
}

/**
 * The e-mail form of fan sign-in: a server action (works without JavaScript), the error next to the
 * field, and "check your inbox" once the link is on its way (the same answer for any valid e-mail).
 */
export function LoginForm({ partnerId, partnerName, next }: { partnerId: string; partnerName: string; next: string }) {
  const t = useTranslations('fanSignin');
  const [state, action] = useActionState<SignInLinkState, FormData>(sendSignInLink, { status: 'idle' });
  const sentRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.status === 'sent') sentRef.current?.focus();
  }, [state]);

  if (state.status === 'sent') {
    return (
      <section className="mk-card" aria-labelledby="login-sent" data-testid="login-sent">
        <h2 id="login-sent" ref={sentRef} tabIndex={-1}>
          {t('sentTitle')}
        </h2>
        <p className="mk-success" role="status">
          {t('sent', { email: state.email, minutes: state.minutes })}
        </p>
        <p className="mk-hint">{t('sentHint')}</p>
        <form action={action} className="login-again">
          <input type="hidden" name="partner" value={partnerId} />
          <input type="hidden" name="next" value={next} />
          <input type="hidden" name="email" value={state.email} />
          <SubmitButton />
        </form>
        <p>
          <a href={`?partner=${encodeURIComponent(partnerId)}&next=${encodeURIComponent(next)}`}>{t('again')}</a>
        </p>
      </section>
    );
  }

  const error =
    state.status !== 'error'
      ? null
      : state.error === 'tooMany'
        ? t('tooMany', { minutes: state.retryMinutes })
        : state.error === 'unavailable'
          ? t('unavailable', { partner: partnerName })
          : t('invalidEmail');
  return (
    <form action={action} className="mk-card" noValidate data-testid="login-form">
      <input type="hidden" name="partner" value={partnerId} />
      <input type="hidden" name="next" value={next} />
      <div className="mk-field">
        <label htmlFor="login-email">{t('email')}</label>
        <p id="login-email-hint" className="mk-hint">
          {t('emailHint')}
        </p>
        <input
          id="login-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={254}
          defaultValue={state.status === 'error' ? state.email : ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'login-email-hint login-email-error' : 'login-email-hint'}
        />
        {error ? (
          <p id="login-email-error" className="mk-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <SubmitButton />
    </form>
  );
}
