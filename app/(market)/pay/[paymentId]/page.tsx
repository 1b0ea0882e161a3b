import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import {
  type CheckoutView,
  SANDBOX_CARD_ERRORS,
  type SandboxCardError,
  sandboxCheckout,
} from '@/server/modules/payments';
import { formatMoney } from '../money';
import '../checkout.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Checkout', robots: { index: false } };

/** Each refusal in the buyer's words, and the field it belongs to (if any). */
const ERRORS: Record<SandboxCardError, { message: string; field?: 'cardNumber' | 'expiry' | 'cvc' | 'name' }> = {
  invalid_number: { message: 'Enter a valid card number.', field: 'cardNumber' },
  invalid_expiry: { message: 'Enter an expiry date in the future, as MM / YY.', field: 'expiry' },
  invalid_cvc: { message: 'Enter the 3 or 4 digit security code from the back of the card.', field: 'cvc' },
  invalid_name: { message: 'Enter the name on the card.', field: 'name' },
  unsupported_card: {
    message: 'This test checkout only takes test cards. Use 4242 4242 4242 4242 to pay.',
    field: 'cardNumber',
  },
  declined: { message: 'Your card was declined. You have not been charged: try another card.' },
  authentication_failed: {
    message: 'Your bank could not confirm the payment. You have not been charged: try again or use another card.',
  },
  not_payable: { message: 'This payment can no longer be paid.' },
};

/**
 * The sandbox's hosted checkout: what is paid for, the amount, and a card form that takes the test
 * cards (PAYMENTS_PROVIDER=sandbox). The form posts to app/api/payments/sandbox/[paymentId] and works
 * without JavaScript; errors come back as `?error=`.
 */
export default async function CheckoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ paymentId: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const view = await sandboxCheckout((await params).paymentId);
  if (!view) notFound();
  const raw = (await searchParams).error;
  const code = (SANDBOX_CARD_ERRORS as readonly string[]).includes(String(raw)) ? (raw as SandboxCardError) : null;
  const { payment, partnerName } = view;
  const amount = formatMoney(payment.amountMinor, payment.currency);
  return (
    <div className="co">
      <aside className="co-summary" aria-label="Order summary">
        <div>
          <p className="co-merchant">
            <span className="co-logo" aria-hidden="true">
              {partnerName.slice(0, 1).toUpperCase()}
            </span>
            {partnerName}
            <span className="co-badge">Test mode</span>
          </p>
          <p className="co-for">Pay {partnerName}</p>
          <p className="co-amount" data-testid="amount">
            {amount}
          </p>
          <ul className="co-lines">
            <li>
              <span>{payment.description}</span>
              <span>{amount}</span>
            </li>
            <li>
              <span>Total due</span>
              <span>
                {amount} <abbr title={payment.currency}>{payment.currency}</abbr>
              </span>
            </li>
          </ul>
        </div>
      </aside>
      <main className="co-main">
        <div>
          <Body view={view} amount={amount} code={code} />
        </div>
      </main>
    </div>
  );
}

function Body({ view, amount, code }: { view: CheckoutView; amount: string; code: SandboxCardError | null }) {
  const { payment, state } = view;
  const ownPage = payment.successUrl.endsWith(`/pay/${payment.id}`);
  const action = `/api/payments/sandbox/${payment.id}`;
  switch (state) {
    case 'paid':
    case 'refunded':
      return (
        <section className="co-state co-state-ok" aria-labelledby="state-title">
          <div className="co-state-icon" aria-hidden="true">
            ✓
          </div>
          <h1 id="state-title">{state === 'paid' ? 'Payment received' : 'Payment refunded'}</h1>
          <p>
            {state === 'paid'
              ? `${amount} was paid${payment.paidAt ? ` on ${payment.paidAt.toUTCString().slice(0, 16)}` : ''}. Nothing more to do here.`
              : `This payment was refunded (${formatMoney(payment.refundedMinor, payment.currency)}).`}
          </p>
          {!ownPage && (
            <a className="co-button" href={payment.successUrl}>
              Continue
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
          <h1 id="state-title">
            {state === 'expired' ? 'This checkout has expired' : 'This payment can’t be completed'}
          </h1>
          <p>You have not been charged. Go back to start again.</p>
          {!ownPage && (
            <a className="co-button co-button-quiet" href={payment.cancelUrl}>
              Go back
            </a>
          )}
        </section>
      );
    case 'requires_action':
      return (
        <section aria-labelledby="auth-title">
          <h1 id="auth-title">Confirm it’s you</h1>
          <div className="co-bank">
            <p>
              Your bank asks you to confirm a payment of <strong>{amount}</strong> to {view.partnerName}.
            </p>
            <p className="co-for">Test mode: choose what your bank answers.</p>
            <form method="post" action={action} className="co-actions">
              <button className="co-button" type="submit" name="action" value="authenticate">
                Complete authentication
              </button>
              <button className="co-button co-button-quiet" type="submit" name="action" value="fail_authentication">
                Fail authentication
              </button>
            </form>
          </div>
        </section>
      );
    default:
      return <CardForm view={view} amount={amount} code={code} action={action} ownPage={ownPage} />;
  }
}

function CardForm({
  view,
  amount,
  code,
  action,
  ownPage,
}: {
  view: CheckoutView;
  amount: string;
  code: SandboxCardError | null;
  action: string;
  ownPage: boolean;
}) {
  const error = code ? ERRORS[code] : null;
  const invalid = (field: string) =>
    error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {};
  const fieldError = (field: string) =>
    error?.field === field ? (
      <p className="co-field-error" id={`${field}-error`}>
        {error.message}
      </p>
    ) : null;
  return (
    <section aria-labelledby="pay-title">
      <h1 id="pay-title">Pay with card</h1>
      {error && (
        <div className="co-alert" role="alert">
          <strong>
            {code === 'declined'
              ? 'Card declined'
              : code === 'authentication_failed'
                ? 'Authentication failed'
                : 'Check your card details'}
          </strong>
          {error.message}
        </div>
      )}
      <form method="post" action={action} className="co-form" noValidate>
        <input type="hidden" name="action" value="pay" />
        <div className="co-field">
          <label htmlFor="email">Email</label>
          <input id="email" type="email" value={view.payment.buyerEmail} readOnly autoComplete="email" />
        </div>
        <div className="co-field">
          <label htmlFor="cardNumber">Card number</label>
          <input
            id="cardNumber"
            name="cardNumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            maxLength={23}
            required
            autoFocus={!!error?.field && error.field === 'cardNumber'}
            {...invalid('cardNumber')}
          />
          {fieldError('cardNumber')}
        </div>
        <div className="co-row">
          <div className="co-field">
            <label htmlFor="expiry">Expiry date</label>
            <input
              id="expiry"
              name="expiry"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM / YY"
              maxLength={7}
              required
              {...invalid('expiry')}
            />
            {fieldError('expiry')}
          </div>
          <div className="co-field">
            <label htmlFor="cvc">Security code</label>
            <input
              id="cvc"
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="CVC"
              maxLength={4}
              required
              {...invalid('cvc')}
            />
            {fieldError('cvc')}
          </div>
        </div>
        <div className="co-field">
          <label htmlFor="name">Name on card</label>
          <input id="name" name="name" autoComplete="cc-name" required {...invalid('name')} />
          {fieldError('name')}
        </div>
        <button className="co-button" type="submit">
          Pay {amount}
        </button>
        {!ownPage && (
          <p className="co-secure">
            <a className="co-link" href={view.payment.cancelUrl}>
              Cancel and go back
            </a>
          </p>
        )}
      </form>
      <div className="co-hint">
        <strong>Sandbox: no real money moves.</strong> Use any future expiry date and any 3-digit code.
        <ul>
          <li>
            <code>4242 4242 4242 4242</code> pays
          </li>
          <li>
            <code>4000 0000 0000 0002</code> is declined
          </li>
          <li>
            <code>4000 0027 6000 3184</code> asks your bank to confirm
          </li>
        </ul>
      </div>
    </section>
  );
}
