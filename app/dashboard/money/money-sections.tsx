import type { inferRouterOutputs } from '@trpc/server';
import Form from 'next/form';
import Link from '@/components/ui/link';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { Table } from '@/components/ui/table';
import { withParams } from '@/components/ui/url';
import { fromMinorUnits } from '@/server/lib/money';
import { MONEY_EXPORT_KINDS, type PayoutState } from '@/server/modules/ops';
import type { AppRouter } from '@/server/trpc/router';
import { formatMoney } from '../partners/_shared/format';

type Money = inferRouterOutputs<AppRouter>['opsMoney']['reconciliation'];
/** The page's query, carried by links (a type alias: Pagination takes a record of strings). */
type Keep = Record<'from' | 'to' | 'partner', string | undefined>;

export const MONEY_PATH = '/dashboard/money';
const BASE = MONEY_PATH;
const PAGE_SIZE = 25;

const STATE_LABEL: Record<PayoutState, { label: string; hint: string; tone: 'neutral' | 'success' | 'warning' }> = {
  DUE: { label: 'Due', hint: 'due by the end of the period; the seller can be paid', tone: 'warning' },
  WAITING_FOR_PAYOUT_INFO: {
    label: 'Waiting for payout info',
    hint: 'due, but the seller has not finished their payout account',
    tone: 'warning',
  },
  NOT_YET_DUE: { label: 'Scheduled later', hint: 'owed, due after the period', tone: 'neutral' },
  PAID: { label: 'Paid', hint: 'paid out in the period', tone: 'success' },
  CANCELLED: { label: 'Cancelled', hint: 'sales of the period refunded: nothing to pay', tone: 'neutral' },
};

/**
 * The period's form (GET to `action`): its two date fields as asked, the one the period check refused
 * (`bad`) saying why, what else the page filters by (`children`), and the alert that this week is shown
 * instead of a refused period.
 */
export function PeriodForm({
  action,
  title,
  asked,
  bad,
  week,
  children,
}: {
  action: string;
  title: string;
  asked: { from: string; to: string };
  bad: PeriodIssue | null | undefined;
  week: { from: string; to: string };
  children?: React.ReactNode;
}) {
  return (
    <SectionCard title={title} description="Whole days, UTC; both days included.">
      <div className="card-body">
        <Form
          action={action}
          className="form-actions"
          style={{ alignItems: 'flex-end' }}
          aria-label={`Choose the ${title.toLowerCase()}`}
        >
          {(['from', 'to'] as const).map((name) => (
            <Field
              key={name}
              label={name === 'from' ? 'From' : 'To'}
              name={name}
              type="date"
              required
              defaultValue={asked[name]}
              error={bad?.path[0] === name ? bad.message : null}
            />
          ))}
          {children}
          <Button type="submit">Show</Button>
        </Form>
        {bad ? (
          <Alert tone="error" title="The period was not read">
            {bad.message}. Showing this week ({week.from} to {week.to}) instead.
          </Alert>
        ) : null}
      </div>
    </SectionCard>
  );
}

/** What the period check says of a refused field. */
interface PeriodIssue {
  path: PropertyKey[];
  message: string;
}

const amount = (minor: number, currency: string) => formatMoney(fromMinorUnits(minor, currency), currency);

/**
 * The period's captured payments per partner and currency: each part, and the difference. Each partner links
 * to the money page of it alone, but on one partner's statement (`keep` null).
 */
export function ReconciliationTable({
  money,
  keep,
  title = 'Reconciliation',
  description,
}: {
  money: Pick<Money, 'totals'>;
  keep: Keep | null;
  title?: string;
  description: string;
}) {
  return (
    <SectionCard title={title} description={description}>
      {money.totals.length === 0 ? (
        <EmptyState title="No captured payments in this period" description="Nothing to reconcile." />
      ) : (
        <Table
          label="Reconciliation per partner and currency"
          columns={[
            'Partner',
            'Payments',
            'Captured',
            'Payouts',
            'Encore fees',
            'Partner fees',
            'Refunds',
            'Difference',
          ]}
        >
          {money.totals.map((t) => (
            <tr key={`${t.partnerId} ${t.currency}`} data-testid="money-total">
              <td>
                {keep ? (
                  <Link href={withParams(BASE, { ...keep, partner: t.partnerId })}>{t.partnerName}</Link>
                ) : (
                  t.partnerName
                )}
              </td>
              <td>{t.payments}</td>
              <td className="nowrap">{amount(t.capturedMinor, t.currency)}</td>
              <td className="nowrap">{amount(t.payoutsMinor, t.currency)}</td>
              <td className="nowrap">{amount(t.encoreFeesMinor, t.currency)}</td>
              <td className="nowrap">{amount(t.partnerFeesMinor, t.currency)}</td>
              <td className="nowrap">{amount(t.refundsMinor, t.currency)}</td>
              <td data-testid="money-difference">
                {amount(t.differenceMinor, t.currency)}{' '}
                {t.mismatches ? (
                  <Badge tone="danger">{t.mismatches} mismatched</Badge>
                ) : (
                  <Badge tone="success">Balanced</Badge>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </SectionCard>
  );
}

/** The payments that do not balance, with their ids, a page at a time; or that everything balances. */
export function Mismatches({ money, keep, page }: { money: Money; keep: Keep; page: number }) {
  const mismatches = money.mismatches.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <SectionCard
      title="Mismatches"
      description="Payments whose parts do not add up, with the ids to look them up by."
      data-testid="money-mismatches"
    >
      {money.mismatchCount === 0 ? (
        <div className="card-body">
          <Alert tone="success" title="Balances to the cent">
            {money.totals.length
              ? `Every one of the ${money.totals.reduce((n, t) => n + t.payments, 0)} captured payments balances.`
              : 'No captured payment in this period.'}
          </Alert>
        </div>
      ) : (
        <>
          <Table
            label="Mismatched payments"
            columns={['Payment · purchase', 'Payouts · refunds', 'Captured', 'Difference', 'Why']}
          >
            {mismatches.map((x) => (
              <tr key={x.paymentId} data-testid="money-mismatch">
                <td>
                  <code>{x.paymentId}</code>
                  <br />
                  <code>{x.intentionId ?? '—'}</code>
                </td>
                <td>
                  {[...x.payoutIds, ...x.refundIds].map((id) => (
                    <code key={id} style={{ display: 'block' }}>
                      {id}
                    </code>
                  ))}
                </td>
                <td>{amount(x.capturedMinor, x.currency)}</td>
                <td>{amount(x.differenceMinor, x.currency)}</td>
                <td>{x.notes.length ? x.notes.join('. ') : 'The parts do not add up to what was captured.'}</td>
              </tr>
            ))}
          </Table>
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(money.mismatches.length / PAGE_SIZE))}
            pageSize={PAGE_SIZE}
            total={money.mismatchCount}
            basePath={BASE}
            params={keep}
            noun="mismatches"
          />
        </>
      )}
    </SectionCard>
  );
}

/** Payouts by state: owed (due, waiting for payout info, later), paid and cancelled. */
export function PayoutsByState({ money }: { money: Pick<Money, 'payoutsByState'> }) {
  return (
    <SectionCard
      title="Payouts by state"
      description="What we owe sellers (due, waiting for payout info, scheduled later), what was paid out and cancelled in the period. Rounded off: what the provider could not pay out (Stripe pays TWD and HUF in whole units, KWD in tens of fils), kept by Encore."
    >
      {money.payoutsByState.length === 0 ? (
        <EmptyState title="No payouts owed, paid or cancelled in this period" />
      ) : (
        <Table label="Payouts by state" columns={['Partner', 'State', 'Payouts', 'Amount', 'Rounded off']}>
          {money.payoutsByState.map((p) => (
            <tr key={`${p.partnerId} ${p.currency} ${p.state}`} data-testid="payout-state">
              <td>{p.partnerName}</td>
              <td>
                <Badge tone={STATE_LABEL[p.state].tone}>{STATE_LABEL[p.state].label}</Badge>
                <span className="field-hint"> {STATE_LABEL[p.state].hint}</span>
              </td>
              <td>{p.payouts}</td>
              <td className="nowrap">{amount(p.amountMinor, p.currency)}</td>
              <td className="nowrap" data-testid="payout-rounded-off">
                {p.state === 'PAID' ? amount(p.roundedOffMinor, p.currency) : '—'}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </SectionCard>
  );
}

/** The partner's CSV exports of the period. */
export function Exports({
  partnerId,
  period,
}: {
  partnerId: string | undefined;
  period: { from: string; to: string };
}) {
  return (
    <SectionCard title="Exports" description="CSV of the period, streamed; cells that look like formulas are defused.">
      <div className="card-body">
        {partnerId ? (
          <div className="form-actions" role="group" aria-label="Exports">
            {MONEY_EXPORT_KINDS.map((kind) => (
              <ButtonLink
                key={kind}
                prefetch={false}
                href={withParams(`/dashboard/partners/${encodeURIComponent(partnerId)}/exports/${kind}`, {
                  from: period.from,
                  to: period.to,
                })}
              >
                Download {kind} CSV
              </ButtonLink>
            ))}
          </div>
        ) : (
          <p className="field-hint">Choose a partner above to download its listings, purchases, payouts and refunds.</p>
        )}
      </div>
    </SectionCard>
  );
}
