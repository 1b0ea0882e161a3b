import { describe, expect, it } from 'vitest';
import { PUT as onePut } from '@/app/v1/channels/listings/[listingId]/route';
import { getDb } from '@/db';
import { listListings } from '@/server/modules/ops';
import { createApiKey, createChannel, updateChannel } from '@/server/modules/partners';
import { callRoute, makePartner, pushEvent, testShow } from '@/server/testing/fixtures';

/*
 * The dashboard's market tables name a channel's listings by the channel (staff cannot read its marker
 * address `chn_…@channels.encore.invalid`); the name is the channel's own, and follows a rename.
 */
describe('channel listings in the staff market tables', () => {
  it('a channel listing names its channel; a renamed channel shows its new name', async () => {
    const p = await makePartner('Seller names');
    const ref = `evt-${p.partner.id}`;
    await pushEvent(p.apiKey, ref, [testShow('1')]);
    const channel = await createChannel({ partnerId: p.partner.id, name: 'StubHub-like' }, getDb());
    const { secret } = await createApiKey(
      { partnerId: p.partner.id, kind: 'channels', channelId: channel.id },
      getDb(),
    );
    const put = await callRoute(onePut, '/v1/channels/listings/L1', secret, {
      method: 'PUT',
      body: { eventId: ref, showId: '1', ticketOptionId: 'GA', quantity: 1, price: 45, currency: 'EUR' },
      params: { listingId: 'L1' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const page = await listListings({ partnerId: p.partner.id }, getDb());
    expect(page.items).toHaveLength(1);
    expect(page.items[0].sellerEmail).toMatch(/@channels\.encore\.invalid$/);
    expect(page.items[0].sellerChannel).toBe('StubHub-like');
    await updateChannel({ partnerId: p.partner.id, channelId: channel.id, name: 'Renamed hub' }, getDb());
    expect((await listListings({ partnerId: p.partner.id }, getDb())).items[0].sellerChannel).toBe('Renamed hub');
  });
});
