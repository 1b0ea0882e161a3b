import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { eventPageInfo, showDirectory } from '@/server/modules/catalog';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { leadsOfShow, upsertLead } from './leads';
import { joinWishlist } from './wishlist';

describe('leads', () => {
  it('updates the lead of the same buyer, event and show, and creates one otherwise', async () => {
    const { partner } = await makePartner('Leads');
    const base = { type: 'WISHLIST' as const, externalReferenceEventId: 'E1', showId: '1' };
    const first = await upsertLead(
      partner.id,
      { ...base, buyer: { email: 'Fan@Example.com' }, tags: ['web'] },
      getDb(),
    );
    expect(first.created).toBe(true);
    expect(first.lead).toMatchObject({ type: 'WISHLIST', buyerEmail: 'fan@example.com', tags: ['web'] });

    const again = await upsertLead(
      partner.id,
      {
        ...base,
        type: 'ABANDONED_CART',
        buyer: { email: 'fan@example.com ', fullName: 'Ana Fan' },
        priceMinor: 4000,
        currency: 'EUR',
      },
      getDb(),
    );
    expect(again.created).toBe(false);
    expect(again.lead.id).toBe(first.lead.id);
    // The new type and fields; what the repeat left out (tags) is kept.
    expect(again.lead).toMatchObject({ type: 'ABANDONED_CART', buyerFullName: 'Ana Fan', price: 4000, tags: ['web'] });

    // Another show, another buyer, a phone-only buyer: three more leads.
    await upsertLead(partner.id, { ...base, showId: '2', buyer: { email: 'fan@example.com' } }, getDb());
    await upsertLead(partner.id, { ...base, buyer: { email: 'other@example.com' } }, getDb());
    await upsertLead(partner.id, { ...base, buyer: { phone: '+34 600 000 000' } }, getDb());
    expect((await upsertLead(partner.id, { ...base, buyer: { phone: '+34600000000' } }, getDb())).created).toBe(false);
    expect((await leadsOfShow(partner.id, 'E1', '1', getDb())).length).toBe(3);
    expect((await leadsOfShow(partner.id, 'E1', '2', getDb())).length).toBe(1);

    // Another partner's lead of the same ids is its own.
    const { partner: other } = await makePartner('Leads other');
    expect((await upsertLead(other.id, { ...base, buyer: { email: 'fan@example.com' } }, getDb())).created).toBe(true);
    expect((await leadsOfShow(partner.id, 'E1', '1', getDb())).length).toBe(3);
  });

  it('refuses a lead without any buyer identifier', async () => {
    const { partner } = await makePartner('Leads none');
    await expect(
      upsertLead(
        partner.id,
        {
          type: 'WISHLIST',
          externalReferenceEventId: 'E',
          showId: '1',
          buyer: { fullName: 'x' },
        },
        getDb(),
      ),
    ).rejects.toThrow(/e-mail, phone or id/);
  });
});

describe('wishlist', () => {
  it('saves one WISHLIST lead per fan and show, and refuses bad e-mails and unknown shows', async () => {
    const { partner, apiKey } = await makePartner('Wishlist');
    const ref = `WL-${partner.id}`;
    await pushEvent(apiKey, ref, [testShow('S1')]);
    const info = await eventPageInfo(await eventPkOf(ref), getDb());
    const input = { eventPk: info!.eventPk, showPk: info!.shows[0].showPk, email: 'Fan@Example.com' };
    expect(await joinWishlist(input, getDb())).toEqual({ ok: true, email: 'fan@example.com', created: true });
    expect(await joinWishlist(input, getDb())).toEqual({ ok: true, email: 'fan@example.com', created: false });
    const saved = await leadsOfShow(partner.id, ref, 'S1', getDb());
    expect(saved).toEqual([expect.objectContaining({ type: 'WISHLIST', buyerEmail: 'fan@example.com' })]);
    expect(await joinWishlist({ ...input, email: 'not-an-email' }, getDb())).toEqual({ ok: false, reason: 'invalid' });
    expect(await joinWishlist({ ...input, showPk: 'shw_other' }, getDb())).toEqual({ ok: false, reason: 'unknown' });
    expect(await joinWishlist({ ...input, eventPk: 'evt_other' }, getDb())).toEqual({ ok: false, reason: 'unknown' });
  });
});

async function eventPkOf(ref: string) {
  const dir = showDirectory(getDb());
  const [row] = await getDb().select({ eventPk: dir.eventPk }).from(dir).where(eq(dir.eventRef, ref));
  return row.eventPk;
}
