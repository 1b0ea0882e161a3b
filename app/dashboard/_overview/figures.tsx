import { Card } from '@/components/ui/card';
import { currencyExponent } from '@/server/lib/money';
import type { MarketOverview } from '@/server/modules/ops';
import { formatCount, formatMoney } from '../partners/_shared/format';
import type { ChartSpec } from './charts';
import styles from './overview.module.css';

/** Minor units as the amount staff read, with its currency code (`1,234.50 EUR`). */
function money(minor: number, currency: string): string {
  return formatMoney(minor / 10 ** currencyExponent(currency), currency) ?? '';
}

/** A duration as staff read it: `2 d 4 h`, `3 h 10 min`, `45 s`; a dash when there is none. */
function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return `${m} min`;
  return `${seconds} s`;
}

function Stat({
  label,
  testId,
  children,
  sub,
}: {
  label: string;
  testId: string;
  children: React.ReactNode;
  sub?: React.ReactNode;
}) {
  return (
    <Card className="stat">
      <p className="stat-label">{label}</p>
      <div className="stat-value" data-testid={testId}>
        {children}
      </div>
      {sub ? <p className={styles.sub}>{sub}</p> : null}
    </Card>
  );
}

/** One line per currency (amounts of different currencies are never added together). */
function PerCurrency({
  o,
  amount,
}: {
  o: MarketOverview;
  amount: (c: MarketOverview['currencies'][number]) => number;
}) {
  if (!o.currencies.length) return <>—</>;
  return (
    <ul className={styles.figureLines}>
      {o.currencies.map((c) => (
        <li key={c.currency}>{money(amount(c), c.currency)}</li>
      ))}
    </ul>
  );
}

/** The market's figures as stat cards: sales, the listings on offer, money, refunds and reissues. */
export function OverviewFigures({ o }: { o: MarketOverview }) {
  const waiting = o.currencies.reduce((n, c) => n + c.payouts.waitingForInfo, 0);
  const refunds = o.currencies.reduce((n, c) => n + c.refunds.count, 0);
  const unsplit = o.currencies.some((c) => c.unsplitFeesMinor !== 0);
  return (
    <>
      <section className={styles.section} aria-labelledby="overview-sales">
        <h2 id="overview-sales" className={styles.sectionTitle}>
          Sales
        </h2>
        <div className="stat-grid">
          <Stat label="Resale volume" testId="overview-gmv" sub="Ticket prices paid by buyers, without the buyer fee">
            <PerCurrency o={o} amount={(c) => c.gmvMinor} />
          </Stat>
          <Stat label="Tickets resold" testId="overview-tickets" sub={`${formatCount(o.sales)} purchases`}>
            {formatCount(o.ticketsResold)}
          </Stat>
          <Stat
            label="Active listings"
            testId="overview-active"
            sub={`${formatCount(o.activeListings.tickets)} tickets on sale now`}
          >
            {formatCount(o.activeListings.listings)}
          </Stat>
          <Stat
            label="Sell-through"
            testId="overview-sell-through"
            sub={`${formatCount(o.sellThrough.sold)} of ${formatCount(o.sellThrough.listed)} listings created in the range are sold`}
          >
            {o.sellThrough.rate === null ? '—' : `${(o.sellThrough.rate * 100).toFixed(1)} %`}
          </Stat>
          <Stat label="Median time to sell" testId="overview-time-to-sell" sub="From listing to sale">
            {duration(o.medianSecondsToSell)}
          </Stat>
          <Stat
            label="Resale price vs face value"
            testId="overview-price-to-face"
            sub="Tickets’ resale prices over their face values"
          >
            {o.priceToFace === null ? '—' : `${o.priceToFace.toFixed(2)} ×`}
          </Stat>
        </div>
      </section>
      <section className={styles.section} aria-labelledby="overview-money">
        <h2 id="overview-money" className={styles.sectionTitle}>
          Money
        </h2>
        <div className="stat-grid">
          <Stat
            label="Encore fees"
            testId="overview-encore-fees"
            sub="Buyer fees plus seller fees, as charged, on sales not cancelled"
          >
            <PerCurrency o={o} amount={(c) => c.buyerFeesMinor + c.sellerFeesMinor} />
          </Stat>
          <Stat label="Encore buyer fees" testId="overview-buyer-fees" sub="Paid by buyers on top of the price">
            <PerCurrency o={o} amount={(c) => c.buyerFeesMinor} />
          </Stat>
          <Stat label="Encore seller fees" testId="overview-seller-fees" sub="Kept from sellers’ prices">
            <PerCurrency o={o} amount={(c) => c.sellerFeesMinor} />
          </Stat>
          <Stat label="Partner fees" testId="overview-partner-fees" sub="Partners’ primary sales fees, as taken">
            <PerCurrency o={o} amount={(c) => c.partnerFeesMinor} />
          </Stat>
          {unsplit ? (
            <Stat
              label="Fees not split"
              testId="overview-unsplit-fees"
              sub="Sales made before fees were recorded at sale time: Encore’s seller fee and the partner’s fee together"
            >
              <PerCurrency o={o} amount={(c) => c.unsplitFeesMinor} />
            </Stat>
          ) : null}
          <Stat label="Payouts due" testId="overview-payouts-due" sub="Scheduled, and due now">
            <PerCurrency o={o} amount={(c) => c.payouts.dueMinor} />
          </Stat>
          <Stat label="Payouts paid" testId="overview-payouts-paid">
            <PerCurrency o={o} amount={(c) => c.payouts.paidMinor} />
          </Stat>
          <Stat label="Payouts scheduled for later" testId="overview-payouts-upcoming">
            <PerCurrency o={o} amount={(c) => c.payouts.upcomingMinor} />
          </Stat>
          <Stat
            label="Waiting for payout info"
            testId="overview-payouts-waiting"
            sub={`${formatCount(waiting)} payouts whose seller has no payout account yet`}
          >
            <PerCurrency o={o} amount={(c) => c.payouts.waitingForInfoMinor} />
          </Stat>
          <Stat label="Refunds" testId="overview-refunds" sub={`${formatCount(refunds)} refunds`}>
            <PerCurrency o={o} amount={(c) => c.refunds.amountMinor} />
          </Stat>
        </div>
      </section>
      <section className={styles.section} aria-labelledby="overview-protection">
        <h2 id="overview-protection" className={styles.sectionTitle}>
          Protection
        </h2>
        <div className="stat-grid">
          <Stat
            label="Reissues awaited"
            testId="overview-reissues"
            sub={`Oldest waiting ${duration(o.reissues.oldestWaitSeconds)}, median ${duration(o.reissues.medianWaitSeconds)}`}
          >
            {formatCount(o.reissues.awaited)}
          </Stat>
          <Stat
            label="Reissued in the range"
            testId="overview-reissued"
            sub={`Median delay from request to new code: ${duration(o.reissues.medianDelaySeconds)}`}
          >
            {formatCount(o.reissues.reissued)}
          </Stat>
        </div>
      </section>
    </>
  );
}

/** The daily series as charts: resale volume per currency, and tickets resold. */
export function chartsOf(o: MarketOverview): ChartSpec[] {
  const days = [...new Set(o.series.map((p) => p.day))];
  const tickets = new Map<string, number>();
  for (const p of o.series) tickets.set(p.day, (tickets.get(p.day) ?? 0) + p.tickets);
  return [
    ...o.currencies
      .filter((c) => c.sales > 0)
      .map((c) => ({
        id: `gmv-${c.currency.toLowerCase()}`,
        title: `Resale volume per day (${c.currency})`,
        unit: c.currency,
        points: o.series
          .filter((p) => p.currency === c.currency)
          .map((p) => ({ day: p.day, value: p.gmvMinor / 10 ** currencyExponent(c.currency) })),
      })),
    {
      id: 'tickets',
      title: 'Tickets resold per day',
      unit: 'Tickets',
      points: days.map((day) => ({ day, value: tickets.get(day) ?? 0 })),
    },
  ];
}
