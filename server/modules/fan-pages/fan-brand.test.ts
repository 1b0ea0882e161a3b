import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { setPartnerDisabled } from '@/server/modules/partners';
import { makePartner } from '@/server/testing/fixtures';
import { sellerMarket } from '@/server/testing/market';
import { ticketsForSale } from '@/server/modules/tickets';
import { fanBrandOf, partnerIdNamedBy } from './fan-brand';
import { createListing } from '@/server/modules/marketplace';

const SELLER = 'brand-seller@example.com';

describe('whose brand a page with no partner of its own wears', () => {
  it("names the partner of a buy page, a listing, a ticket's sell page, a resale entry and ?partner=", async () => {
    const m = await sellerMarket({ seller: SELLER, name: 'Brand market', daysAhead: 30 });
    const [t1] = await ticketsForSale(m.partnerId, ['T1'], getDb());
    const listing = await createListing(
      { partnerId: m.partnerId, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 },
      getDb(),
    );
    const named = (address: string) => partnerIdNamedBy(address, getDb());
    expect(await named(`/market/${t1.eventPk}`)).toBe(m.partnerId);
    expect(await named(`/market/${t1.eventPk}/nothing/here`)).toBe(m.partnerId);
    expect(await named(`/sell/${t1.pk}?order=1`)).toBe(m.partnerId);
    expect(await named(`/sell/${t1.pk}/done`)).toBe(m.partnerId);
    expect(await named(`/listing/${listing.id}/transfer?to=x`)).toBe(m.partnerId);
    expect(await named(`/resale/${m.partnerId}`)).toBe(m.partnerId);
    expect(await named(`/login?partner=${m.partnerId}&next=/me`)).toBe(m.partnerId);
    expect(await named(`/auth/expired?partner=${m.partnerId}`)).toBe(m.partnerId);
  });

  it('names nobody for unknown ids, other pages, or addresses that are not paths', async () => {
    const named = (address: string | null) => partnerIdNamedBy(address, getDb());
    for (const address of [
      '/market/evt_doesnotexist',
      '/listing/lst_nope',
      '/sell/tkt_nope',
      '/me',
      '/checkout?partner=ptr_x',
      '/nowhere',
      '/',
      null,
      `/market/${'x'.repeat(3000)}`,
    ])
      expect(await named(address), String(address)).toBeNull();
  });

  it('takes the address first, then the last partner signed in with; never an unknown or disabled one', async () => {
    const a = (await makePartner('Brand A')).partner;
    const b = (await makePartner('Brand B')).partner;
    const off = (await makePartner('Brand off')).partner;
    await setPartnerDisabled({ partnerId: off.id, disabled: true }, getDb());
    const brand = async (address: string | null, last: string | null) =>
      (await fanBrandOf(address, last, getDb()))?.name ?? null;
    expect(await brand(`/resale/${a.id}`, b.id)).toBe(a.name);
    expect(await brand('/market/evt_unknown', b.id)).toBe(b.name);
    expect(await brand('/me', b.id)).toBe(b.name);
    expect(await brand(`/resale/${off.id}`, b.id)).toBe(b.name);
    expect(await brand('/me', off.id)).toBeNull();
    expect(await brand('/me', 'ptr_forged')).toBeNull();
    expect(await brand('/me', null)).toBeNull();
    expect(await fanBrandOf(`/resale/${a.id}`, null, getDb())).toEqual({ id: a.id, name: a.name, logoUrl: null });
  });
});
