import { describe, expect, it } from 'vitest';
import { GET as salePublicUrl } from '@/app/v1/events/tickets/salePublicUrl/route';
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { GET as secureUrl } from '@/app/v1/tickets/[ticketId]/url/route';
import { getDb } from '@/db';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from '@/server/testing/fixtures';
import { secureViewByToken } from './urls';

async function setup() {
  const partner = await makePartner('Urls');
  const ref = `URL-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  await pushEvent(partner.apiKey, ref, [testShow(`${ref}-S`)]);
  const res = await syncPost(
    apiRequest('/v1/sync/tickets', {
      key: partner.apiKey,
      body: ['U1', 'U2'].map((ticketId) => ({
        externalReferenceEventId: ref,
        buyer: 'fan@example.com',
        ticketId,
        ticketAccess: { type: 'OTHER', locator: 'C' },
        ticketOptionId: 'GA',
      })),
    }),
  );
  expect((await res.json()).data.imported).toBe(2);
  return { ...partner, ref };
}

const secure = async (key: string, ticketId: string) => {
  const res = await secureUrl(apiRequest(`/v1/tickets/${ticketId}/url`, { key }), routeParams({ ticketId }));
  return { status: res.status, body: await res.json() };
};

describe('ticket URLs', () => {
  it('answers an absolute, unguessable secure-view URL that is stable per ticket and distinct between tickets', async () => {
    const s = await setup();
    const a = await secure(s.apiKey, 'U1');
    expect(a.status).toBe(200);
    expect(a.body.errors).toBeNull();
    expect(a.body.data).toMatch(/^http:\/\/encore\.test\/t\/[0-9a-f]{64}$/);
    expect((await secure(s.apiKey, 'U1')).body.data).toBe(a.body.data);
    expect((await secure(s.apiKey, 'U2')).body.data).not.toBe(a.body.data);
    const token = a.body.data.split('/t/')[1];
    expect(await secureViewByToken(token, getDb())).toMatchObject({
      event: s.ref,
      show: `${s.ref}-S`,
      status: 'VALID',
    });
    expect(await secureViewByToken('0'.repeat(64), getDb())).toBeNull();
  });

  it('answers the public sale URL for the ticket with its language, and requires both parameters', async () => {
    const s = await setup();
    const res = await salePublicUrl(
      apiRequest('/v1/events/tickets/salePublicUrl?ticketId=U1&lang=es', { key: s.apiKey }),
    );
    const body = await res.json();
    expect(res.status).toBe(200);
    const url = new URL(body.data);
    expect(url.origin).toBe('http://encore.test');
    expect(url.pathname).toMatch(/^\/market\/evt_/);
    expect(url.searchParams.get('lang')).toBe('es');
    expect(url.searchParams.get('ticket')).toMatch(/^tkt_/);
    const missing = await salePublicUrl(apiRequest('/v1/events/tickets/salePublicUrl?ticketId=U1', { key: s.apiKey }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors.details[0]).toMatchObject({ path: 'lang', in: 'query' });
  });

  it("answers 404 for an unknown ticket and for another partner's", async () => {
    const s = await setup();
    const other = await makePartner('Other');
    expect((await secure(s.apiKey, 'NOPE')).status).toBe(404);
    expect((await secure(other.apiKey, 'U1')).status).toBe(404);
    const res = await salePublicUrl(
      apiRequest('/v1/events/tickets/salePublicUrl?ticketId=U1&lang=en', { key: other.apiKey }),
    );
    expect(res.status).toBe(404);
  });
});
