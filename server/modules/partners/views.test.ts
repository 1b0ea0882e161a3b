import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { setEnv } from '@/server/testing/env';
import { makePartner } from '@/server/testing/fixtures';
import { createChannel, setChannelDisabled, setPrimarySalesFee } from '.';

/* The views the partners module defines for other modules' SQL (db/schema/partners.ts, migration 0039). */

describe('channel_webhook_endpoints', () => {
  it('lists a channel that takes webhooks (URL set, not disabled) with its URL and secret, and no other', async () => {
    const restore = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
    try {
      const { partner } = await makePartner('Channel endpoints');
      const hooked = await createChannel(
        { partnerId: partner.id, name: 'Hooked', webhookUrl: 'http://127.0.0.1:9/hook' },
        getDb(),
      );
      const silent = await createChannel({ partnerId: partner.id, name: 'No URL' }, getDb());
      const off = await createChannel(
        { partnerId: partner.id, name: 'Off', webhookUrl: 'http://127.0.0.1:9/off' },
        getDb(),
      );
      await setChannelDisabled({ partnerId: partner.id, channelId: off.id, disabled: true }, getDb());

      const rows = await getDb().execute<{ channel_id: string; url: string; signing_secret: string }>(
        sql`select channel_id, partner_id, url, signing_secret from channel_webhook_endpoints
            where partner_id = ${partner.id}`,
      );
      expect(rows.map((r) => [r.channel_id, r.url])).toEqual([[hooked.id, 'http://127.0.0.1:9/hook']]);
      expect(rows[0].signing_secret).toBe(hooked.signingSecret);
      expect([silent.id, off.id]).not.toContain(rows[0].channel_id);
    } finally {
      restore();
    }
  });
});

describe('partner_primary_sales_fees', () => {
  it("gives the partner's default fee as stored, null while none is set", async () => {
    const { partner } = await makePartner('Fee view');
    const feeOf = async () =>
      (
        await getDb().execute<{ fee: unknown }>(
          sql`select fee from partner_primary_sales_fees where partner_id = ${partner.id}`,
        )
      ).map((r) => r.fee);
    expect(await feeOf()).toEqual([null]);
    await setPrimarySalesFee({ partnerId: partner.id, primarySalesFee: { type: 'FIXED', value: 2.5 } }, getDb());
    expect(await feeOf()).toEqual([{ type: 'FIXED', value: 2.5 }]);
  });
});
