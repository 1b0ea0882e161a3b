/**
 * `npm run payment:test -- --partner ptr_… [--amount 45.50] [--currency EUR] [--description "…"] [--email fan@…]`
 * → one JSON line on stdout: {"paymentId": "pay_…", "url": "…"}
 *
 * Opens a test payment with the configured provider (the sandbox by default) so its hosted checkout
 * can be tried by hand or by the end-to-end tests. Attaches to the database like `partner:create`.
 */
import { parseArgs } from 'node:util';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { toMinorUnits } from '@/server/lib/money';
import { startPayment } from '@/server/modules/payments';
import { runWithDatabase } from './run';

process.env.LOG_LEVEL = 'error';

const { values } = parseArgs({
  options: {
    partner: { type: 'string' },
    amount: { type: 'string', default: '45.50' },
    currency: { type: 'string', default: 'EUR' },
    description: { type: 'string', default: 'Test payment' },
    email: { type: 'string', default: 'fan@example.com' },
    'success-url': { type: 'string' },
  },
  strict: true,
});

if (!values.partner) {
  process.stderr.write('usage: npm run payment:test -- --partner ptr_… [--amount 45.50] [--currency EUR]\n');
  process.exit(2);
} else {
  const partnerId = values.partner;
  runWithDatabase(
    'payment:test',
    async () => {
      const minor = toMinorUnits(values.amount, values.currency);
      if ('error' in minor) throw new AppError('BAD_REQUEST', `--amount ${minor.error}`);
      const { payment, url } = await startPayment(
        partnerId,
        {
          purpose: 'test',
          reference: `cli-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
          description: values.description,
          amountMinor: minor.minor,
          currency: values.currency,
          buyerEmail: values.email,
          successUrl: values['success-url'],
        },
        getDb(),
      );
      process.stdout.write(JSON.stringify({ paymentId: payment.id, url }) + '\n');
      return 0;
    },
    (err) => err instanceof AppError,
  );
}
