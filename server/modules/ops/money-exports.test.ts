import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { csvResponse } from '@/server/lib/csv';
import { recordJobsInFile } from '@/server/testing/jobs';
import { LATE_SELLER, moneyMarket, SELLER } from '@/server/testing/money';
import { type MoneyExportKind, moneyCsv } from './money-exports';
import { periodOf } from './period';

recordJobsInFile();

const today = new Date().toISOString().slice(0, 10);
const period = periodOf({ from: today, to: today });

async function csv(kind: MoneyExportKind, partnerId: string, pageSize?: number) {
  const chunks: string[] = [];
  for await (const chunk of moneyCsv(kind, partnerId, period, getDb(), pageSize)) chunks.push(chunk);
  return { chunks, lines: chunks.join('').split('\r\n').slice(0, -1) };
}

describe('money exports', () => {
  it('streams each kind a page at a time: a header, then one line per row, every row once', async () => {
    const m = await moneyMarket('Money exports');
    const other = await moneyMarket('Money exports elsewhere');

    const payouts = await csv('payouts', m.partnerId, 1);
    // Header + one chunk per page of one: three payouts, three pages.
    expect(payouts.chunks).toHaveLength(4);
    expect(payouts.lines[0]).toBe(
      'payoutId,createdAt,status,sellerEmail,amount,currency,dueAt,paidAt,listingId,intentionId,paymentId',
    );
    const rows = payouts.lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0]).sort()).toEqual([m.paidOut.payoutId, m.refunded.payoutId, m.due.payoutId].sort());
    const byId = new Map(rows.map((r) => [r[0], r]));
    expect(byId.get(m.paidOut.payoutId)).toEqual([
      m.paidOut.payoutId,
      expect.stringMatching(/^\d{4}-/),
      'PAID',
      SELLER,
      '35',
      'EUR',
      expect.stringMatching(/^\d{4}-/),
      expect.stringMatching(/^\d{4}-/),
      m.paidOut.listingId,
      m.paidOut.intentionId,
      m.paidOut.paymentId,
    ]);
    expect(byId.get(m.due.payoutId)?.slice(2, 6)).toEqual(['SCHEDULED', LATE_SELLER, '29.66', 'EUR']);
    expect(byId.get(m.refunded.payoutId)?.[2]).toBe('CANCELLED');
    // The other partner's rows are never in it.
    expect(payouts.lines.join('\n')).not.toContain(other.paidOut.payoutId);

    const purchases = await csv('purchases', m.partnerId, 2);
    expect(purchases.chunks).toHaveLength(3);
    expect(purchases.lines[0]).toBe(
      'paymentId,intentionId,paidAt,buyerEmail,purchaseStatus,paymentStatus,listingIds,subtotal,buyerFee,total,captured,refunded,currency,refundReason',
    );
    const refundedLine = purchases.lines.find((l) => l.startsWith(m.refunded.paymentId))!.split(',');
    expect(refundedLine.slice(4)).toEqual([
      'REFUNDED',
      'refunded',
      m.refunded.listingId,
      '50',
      '5.5',
      '55.5',
      '55.5',
      '55.5',
      'EUR',
      'STAFF_REFUND',
    ]);

    const listings = await csv('listings', m.partnerId);
    expect(listings.lines).toHaveLength(4);
    expect(listings.lines.find((l) => l.startsWith(m.due.listingId))).toContain(`,${LATE_SELLER},1,33.33,EUR,T3,`);
  });

  it('defuses a formula in a cell so a spreadsheet shows it as text', async () => {
    const m = await moneyMarket('Money formulas');
    const { lines } = await csv('refunds', m.partnerId);
    expect(lines[0]).toBe('refundId,createdAt,status,amount,currency,reason,paymentId,intentionId');
    expect(lines).toHaveLength(2);
    // The staff's reason began with "=": quoted, its quotes doubled, and prefixed with ' so it is not run.
    expect(lines[1]).toContain(`,succeeded,55.5,EUR,"'=HYPERLINK(""http://evil.example"") (by ops@encore.test)",`);
    expect(lines[1].endsWith(`,${m.refunded.paymentId},${m.refunded.intentionId}`)).toBe(true);
  });

  it('lists rows in time order, whatever their ids, across pages', async () => {
    const m = await moneyMarket('Money export order');
    // Times in the reverse of the ids' order, so id order and time order disagree.
    const ids = [m.paidOut.payoutId, m.refunded.payoutId, m.due.payoutId].sort().reverse();
    for (const [i, id] of ids.entries()) {
      await getDb().execute(
        sql`update payouts set created_at = ${period.start.toISOString()}::timestamptz + make_interval(mins => ${i + 1})
            where id = ${id}`,
      );
    }
    const { lines } = await csv('payouts', m.partnerId, 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(ids);
  });

  it('a Spanish name and a refund come out readable in a spreadsheet: BOM first, UTF-8 intact', async () => {
    const m = await moneyMarket('Devoluciones Peña');
    await getDb().execute(
      sql`update refunds set reason = 'Devolución a Begoña Núñez' where payment_id = ${m.refunded.paymentId}`,
    );
    const res = csvResponse(moneyCsv('refunds', m.partnerId, period, getDb()), 'refunds.csv');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFFrefundId,createdAt,')).toBe(true);
    expect(text).toContain(',succeeded,55.5,EUR,Devolución a Begoña Núñez,');
  });
});
