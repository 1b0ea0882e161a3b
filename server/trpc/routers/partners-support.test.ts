import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { showDirectory } from '@/server/modules/catalog';
import { buyerPromiseFacts, supportFacts } from '@/server/modules/marketplace';
import { setEnv } from '@/server/testing/env';
import { sellerMarket } from '@/server/testing/market';
import { makePartner } from '@/server/testing/fixtures';
import { zodIssues } from '@/server/testing/trpc';
import { createCallerFactory } from '../init';
import { appRouter } from '../router';

const createCaller = createCallerFactory(appRouter);
const staff = createCaller({ staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' } });
const anonymous = createCaller({ staff: null });

/** The refused input's issues as `path: message`. */
async function refusal(call: Promise<unknown>): Promise<string[]> {
  return (await zodIssues(call)).map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('partners.setSupport: the support contact fans are given', () => {
  it('refuses callers who are not signed in', async () => {
    const { partner } = await makePartner('Support auth');
    await expect(
      anonymous.partners.setSupport({
        partnerId: partner.id,
        supportUrl: 'https://help.example.com',
        supportEmail: '',
      }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await staff.partners.get({ partnerId: partner.id })).supportUrl).toBeNull();
  });

  it('sets both, then clears each with an empty field; unset, fans are given Encore’s address', async () => {
    const restore = setEnv({ SUPPORT_EMAIL: 'help@encore.test' });
    try {
      const { partner } = await makePartner('Support set');
      const partnerId = partner.id;
      expect(await supportFacts(partnerId, getDb())).toEqual({
        partnerName: partner.name,
        support: { url: null, email: null },
        encoreSupportEmail: 'help@encore.test',
      });
      const set = await staff.partners.setSupport({
        partnerId,
        supportUrl: ' https://help.teatro.example/fans ',
        supportEmail: 'Fans@Teatro.example',
      });
      expect(set).toMatchObject({
        supportUrl: 'https://help.teatro.example/fans',
        supportEmail: 'Fans@Teatro.example',
      });
      expect((await supportFacts(partnerId, getDb())).support).toEqual({
        url: 'https://help.teatro.example/fans',
        email: 'Fans@Teatro.example',
      });
      const urlOnly = await staff.partners.setSupport({
        partnerId,
        supportUrl: 'https://help.teatro.example/fans',
        supportEmail: '  ',
      });
      expect(urlOnly).toMatchObject({ supportUrl: 'https://help.teatro.example/fans', supportEmail: null });
      const cleared = await staff.partners.setSupport({ partnerId, supportUrl: '', supportEmail: null });
      expect(cleared).toMatchObject({ supportUrl: null, supportEmail: null });
    } finally {
      restore();
    }
  });

  it('refuses a bad value naming its field: an http or non-URL page, a malformed e-mail', async () => {
    const { partner } = await makePartner('Support invalid');
    const partnerId = partner.id;
    expect(
      await refusal(staff.partners.setSupport({ partnerId, supportUrl: 'http://help.example.com', supportEmail: '' })),
    ).toEqual(['supportUrl: The support URL must be an https:// URL']);
    expect(await refusal(staff.partners.setSupport({ partnerId, supportUrl: 'help page', supportEmail: '' }))).toEqual([
      'supportUrl: The support URL must be an https:// URL',
    ]);
    expect(
      await refusal(staff.partners.setSupport({ partnerId, supportUrl: '', supportEmail: 'not-an-email' })),
    ).toEqual(['supportEmail: The support e-mail must be an e-mail address, like help@example.com']);
    // Nothing was stored by the refused calls.
    expect(await staff.partners.get({ partnerId })).toMatchObject({ supportUrl: null, supportEmail: null });
  });

  it('is the partner’s own: setting one partner’s contact changes nothing another’s fans read', async () => {
    const a = await sellerMarket({ seller: 'support-a@example.com', name: 'Support A' });
    const b = await sellerMarket({ seller: 'support-b@example.com', name: 'Support B' });
    await staff.partners.setSupport({
      partnerId: a.partnerId,
      supportUrl: 'https://help.a.example',
      supportEmail: 'help@a.example',
    });
    const showOf = async (partnerId: string) => {
      const d = showDirectory(getDb());
      const [row] = await getDb().select({ showPk: d.showPk }).from(d).where(eq(d.partnerId, partnerId));
      return row.showPk;
    };
    expect((await buyerPromiseFacts(await showOf(a.partnerId), getDb()))?.support).toEqual({
      url: 'https://help.a.example',
      email: 'help@a.example',
    });
    expect((await buyerPromiseFacts(await showOf(b.partnerId), getDb()))?.support).toEqual({ url: null, email: null });
    expect(await staff.partners.get({ partnerId: b.partnerId })).toMatchObject({
      supportUrl: null,
      supportEmail: null,
    });
  });
});
