import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { GuaranteeBlock } from '@/components/market/guarantee';
import { CheckIcon } from '@/components/market/icons';
import { isOrderBuyer, maskedEmail } from '@/components/market/order-access';
import { getDb } from '@/db';
import { formatDay, formatMoney, type Locale } from '@/server/lib/i18n';
import { fromMinorUnits } from '@/server/lib/money';
import { BUY_INTENTION_PURPOSE, intentionPromiseFacts } from '@/server/modules/marketplace';
import { paymentOrder } from '@/server/modules/fan-pages';
import {
  type CheckoutView,
  SANDBOX_CARD_ERRORS,
  SANDBOX_TEST_CARDS,
  type SandboxCardError,
  sandboxCheckout,
} from '@/server/modules/payments';
import '../checkout.css';
import { SandboxPage } from '../merchant';
import { OrderDetails, OrderHold } from './order-details';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('pay');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Field = 'cardNumber' | 'expiry' | 'cvc' | 'name';
type T = Awaited<ReturnType<typeof getTranslations<'pay'>>>;

/** The field each refusal belongs to (if any); its words are `pay.errors.<code>` in the page's language. */
const ERROR_FIELD: Record<SandboxCardError, Field | undefined> = {
  invalid_number: 'cardNumber',
  invalid_expiry: 'expiry',
  invalid_cvc: 'cvc',
  invalid_name: 'name',
  unsupported_card: 'cardNumber',
  declined: undefined,
  authentication_failed: undefined,
  not_payable: undefined,
  hold_ended: undefined,
  show_cancelled: undefined,
  partner_unavailable: undefined,
  unavailable: undefined,
};

/** `4242424242424242` → `4242 4242 4242 4242`. */
const spaced = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The sandbox's hosted checkout: what is paid for, the amount, and a card form that takes the test
 * cards (PAYMENTS_PROVIDER=sandbox), in the fan's language. The form posts to
 * app/api/payments/sandbox/[paymentId] and works without JavaScript; errors come back as `?error=`
 * (a stable code, worded here).
 */
export default async function CheckoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ paymentId: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const view = await sandboxCheckout((await params).paymentId, getDb());
  if (!view) notFound();
  // A resale purchase: the buyer reads what they buy (event, seats, fee split, the hold) and what Encore
  // guarantees where they pay.
  const resale = view.payment.purpose === BUY_INTENTION_PURPOSE;
  const [t, tb, locale, promises, order, buyer] = await Promise.all([
    getTranslations('pay'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
    resale ? intentionPromiseFacts(view.payment.reference, getDb()) : null,
    resale ? paymentOrder(view.payment.reference, getDb()) : null,
    isOrderBuyer({
      intentionId: view.payment.reference,
      partnerId: view.payment.partnerId,
      buyerEmail: view.payment.buyerEmail,
    }),
  ]);
  // The buyer's e-mail is theirs to see: anyone else with the address sees it masked (order-access.ts).
  const shown = buyer
    ? view
    : { ...view, payment: { ...view.payment, buyerEmail: maskedEmail(view.payment.buyerEmail) } };
  const raw = (await searchParams).error;
  const code = (SANDBOX_CARD_ERRORS as readonly string[]).includes(String(raw)) ? (raw as SandboxCardError) : null;
  const { payment, partnerName, state } = view;
  const amount = formatMoney(fromMinorUnits(payment.amountMinor, payment.currency), payment.currency, locale);
  const holding = order?.status === 'PENDING' && (state === 'payable' || state === 'requires_action');
  return (
    <SandboxPage
      label={t('orderSummary')}
      partnerName={partnerName}
      testMode={t('testMode')}
      summary={
        <>
          <p className="co-for">{t('payTo', { partner: partnerName })}</p>
          <p className="co-amount" data-testid="amount">
            {amount}
          </p>
          {holding ? <OrderHold order={order} t={t} /> : null}
          {order ? (
            <OrderDetails order={order} amount={amount} currency={payment.currency} locale={locale} t={t} tb={tb} />
          ) : (
            <ul className="co-lines">
              <li>
                <span>{payment.description}</span>
                <span>{amount}</span>
              </li>
              <li>
                <span>{t('totalDue')}</span>
                <span>
                  {amount} <abbr title={payment.currency}>{payment.currency}</abbr>
                </span>
              </li>
            </ul>
          )}
        </>
      }
    >
      <Body view={shown} amount={amount} code={code} t={t} locale={locale} />
      {promises ? <GuaranteeBlock facts={promises} className="co-guarantee" /> : null}
    </SandboxPage>
  );
}

function Body({
  view,
  amount,
  code,
  t,
  locale,
}: {
  view: CheckoutView;
  amount: string;
  code: SandboxCardError | null;
  t: T;
  locale: Locale;
}) {
  const { payment, state } = view;
  const ownPage = payment.successUrl.endsWith(`/pay/${payment.id}`);
  const action = `/api/payments/sandbox/${payment.id}`;
  switch (state) {
    case 'paid':
    case 'refunded':
      return (
        <section className="co-state co-state-ok" aria-labelledby="state-title">
          <div className="co-state-icon" aria-hidden="true">
            <CheckIcon />
          </div>
          <h1 id="state-title">{state === 'paid' ? t('paidTitle') : t('refundedTitle')}</h1>
          <p>
            {state === 'refunded'
              ? t('refunded', {
                  amount: formatMoney(
                    fromMinorUnits(payment.refundedMinor, payment.currency),
                    payment.currency,
                    locale,
                  ),
                })
              : payment.paidAt
                ? t('paidOn', { amount, date: formatDay(payment.paidAt, locale) })
                : t('paid', { amount })}
          </p>
          {!ownPage && (
            <a className="co-button" href={payment.successUrl}>
              {t('continue')}
            </a>
          )}
        </section>
      );
    case 'expired':
    case 'failed':
      return (
        <section className="co-state co-state-off" aria-labelledby="state-title">
          <div className="co-state-icon" aria-hidden="true">
            !
          </div>
          <h1 id="state-title">{state === 'expired' ? t('expiredTitle') : t('failedTitle')}</h1>
          {code === 'hold_ended' || code === 'show_cancelled' ? (
            // Refused before the card was charged: say why, in the fan's language.
            <p data-testid="pay-refused">{t(`errors.${code}`)}</p>
          ) : (
            <p>{t('notCharged')}</p>
          )}
          {!ownPage && (
            <a className="co-button co-button-quiet" href={payment.cancelUrl}>
              {t('goBack')}
            </a>
          )}
        </section>
      );
    case 'requires_action':
      return (
        <section aria-labelledby="auth-title">
          <h1 id="auth-title">{t('authTitle')}</h1>
          <div className="co-bank">
            <p>
              {t.rich('authAsk', {
                amount,
                partner: view.partnerName,
                strong: (chunks) => <strong>{chunks}</strong>,
              })}
            </p>
            <p className="co-for">{t('authHint')}</p>
            <form method="post" action={action} className="co-actions">
              <button className="co-button" type="submit" name="action" value="authenticate">
                {t('authComplete')}
              </button>
              <button className="co-button co-button-quiet" type="submit" name="action" value="fail_authentication">
                {t('authFail')}
              </button>
            </form>
          </div>
        </section>
      );
    default:
      return <CardForm view={view} amount={amount} code={code} action={action} ownPage={ownPage} t={t} />;
  }
}

function CardForm({
  view,
  amount,
  code,
  action,
  ownPage,
  t,
}: {
  view: CheckoutView;
  amount: string;
  code: SandboxCardError | null;
  action: string;
  ownPage: boolean;
  t: T;
}) {
  const error = code ? { message: t(`errors.${code}`, { partner: view.partnerName }), field: ERROR_FIELD[code] } : null;
  const invalid = (field: Field) =>
    error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {};
  const fieldError = (field: Field) =>
    error?.field === field ? (
      <p className="co-field-error" id={`${field}-error`}>
        {error.message}
      </p>
    ) : null;
  const code_ = (chunks: React.ReactNode) => <code>{chunks}</code>;
  return (
    <section aria-labelledby="pay-title" className="co-hides-at-zero" data-testid="card-section">
      <h1 id="pay-title">{t('payWithCard')}</h1>
      {error && (
        <div className="co-alert" role="alert">
          <strong>
            {code === 'declined'
              ? t('alertDeclined')
              : code === 'authentication_failed'
                ? t('alertAuthentication')
                : t('alertCheck')}
          </strong>
          {error.message}
        </div>
      )}
      <form method="post" action={action} className="co-form" noValidate>
        <input type="hidden" name="action" value="pay" />
        <div className="co-field">
          <label htmlFor="email">{t('email')}</label>
          <input id="email" type="email" value={view.payment.buyerEmail} readOnly autoComplete="email" />
        </div>
        <div className="co-field">
          <label htmlFor="cardNumber">{t('cardNumber')}</label>
          <input
            id="cardNumber"
            name="cardNumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            maxLength={23}
            required
            autoFocus={error?.field === 'cardNumber'}
            {...invalid('cardNumber')}
          />
          {fieldError('cardNumber')}
        </div>
        <div className="co-row">
          <div className="co-field">
            <label htmlFor="expiry">{t('expiry')}</label>
            <input
              id="expiry"
              name="expiry"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder={t('expiryPlaceholder')}
              maxLength={7}
              required
              {...invalid('expiry')}
            />
            {fieldError('expiry')}
          </div>
          <div className="co-field">
            <label htmlFor="cvc">{t('cvc')}</label>
            <input
              id="cvc"
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder={t('cvcPlaceholder')}
              maxLength={4}
              required
              {...invalid('cvc')}
            />
            {fieldError('cvc')}
          </div>
        </div>
        <div className="co-field">
          <label htmlFor="name">{t('name')}</label>
          <input id="name" name="name" autoComplete="cc-name" required {...invalid('name')} />
          {fieldError('name')}
        </div>
        <button className="co-button" type="submit">
          {t('payAmount', { amount })}
        </button>
        {!ownPage && (
          <p className="co-secure">
            <a className="co-link" href={view.payment.cancelUrl}>
              {t('cancel')}
            </a>
          </p>
        )}
      </form>
      <div className="co-hint">
        <strong>{t('sandboxTitle')}</strong> {t('sandboxHint')}
        <ul>
          <li>{t.rich('cardPays', { card: spaced(SANDBOX_TEST_CARDS.succeeds), code: code_ })}</li>
          <li>{t.rich('cardDeclined', { card: spaced(SANDBOX_TEST_CARDS.declined), code: code_ })}</li>
          <li>{t.rich('cardAuthenticates', { card: spaced(SANDBOX_TEST_CARDS.authenticate), code: code_ })}</li>
        </ul>
      </div>
    </section>
  );
}
