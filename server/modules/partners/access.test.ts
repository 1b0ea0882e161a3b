import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GET as channelsMe } from '@/app/v1/channels/me/route';
import { GET as me } from '@/app/v1/me/route';
import { getDb } from '@/db';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/router';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { listApiKeys } from './api-keys';
import { createPartner, listPartners, renamePartner, setPartnerDisabled } from './partners';

const staff = createCallerFactory(appRouter)({
  staff: { id: 'stf_test', email: 'ops@encore.test', name: 'Ops', role: 'admin' },
});

async function call(handler: (req: Request) => Promise<Response>, path: string, key: string) {
  const res = await handler(apiRequest(path, { key }));
  return { status: res.status, body: await res.json() };
}

describe('disabling a partner', () => {
  it('answers 403 in the envelope for both key kinds, deletes nothing, and re-enabling restores access', async () => {
    const { partner, apiKey, channelsApiKey } = await makePartner('Disable me');
    expect((await call(me, '/v1/me', apiKey)).status).toBe(200);

    const disabled = await staff.partners.setDisabled({ partnerId: partner.id, disabled: true });
    expect(disabled.disabledAt).toBeInstanceOf(Date);

    for (const [handler, path, key] of [
      [me, '/v1/me', apiKey],
      [channelsMe, '/v1/channels/me', channelsApiKey],
    ] as const) {
      const res = await call(handler, path, key);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, data: null });
      expect(JSON.stringify(res.body)).toContain('This partner is disabled. Contact Encore support.');
    }
    // Keys are kept and stay unrevoked; only the partner's flag changed.
    const keys = await listApiKeys(partner.id, getDb());
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => k.revokedAt === null)).toBe(true);

    // Disabling again keeps the first time.
    const again = await setPartnerDisabled({ partnerId: partner.id, disabled: true }, getDb());
    expect(again.disabledAt?.getTime()).toBe(disabled.disabledAt?.getTime());

    const enabled = await staff.partners.setDisabled({ partnerId: partner.id, disabled: false });
    expect(enabled.disabledAt).toBeNull();
    expect((await call(me, '/v1/me', apiKey)).body).toMatchObject({ data: { partnerId: partner.id } });
    expect((await call(channelsMe, '/v1/channels/me', channelsApiKey)).status).toBe(200);
  });

  it('still answers 401 for an unknown key, so the disabled message reveals nothing to guessers', async () => {
    const { partner } = await makePartner('Disabled unknown key');
    await setPartnerDisabled({ partnerId: partner.id, disabled: true }, getDb());
    const res = await call(me, '/v1/me', 'sk_live_thisKeyDoesNotExist0000000000000');
    expect(res.status).toBe(401);
  });

  it('shows disabled partners in the list with their disabled time', async () => {
    const tag = `DisList${Date.now()}`;
    const a = await makePartner(`${tag} A`);
    const b = await makePartner(`${tag} B`);
    await setPartnerDisabled({ partnerId: a.partner.id, disabled: true }, getDb());
    const { items } = await listPartners({ search: tag }, getDb());
    const byId = new Map(items.map((p) => [p.id, p]));
    expect(byId.get(a.partner.id)?.disabledAt).toBeInstanceOf(Date);
    expect(byId.get(b.partner.id)?.disabledAt).toBeNull();
  });

  it('answers NOT_FOUND for an unknown partner', async () => {
    await expect(staff.partners.setDisabled({ partnerId: 'ptr_nope', disabled: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('renaming a partner', () => {
  it('trims the new name, and the API shows it', async () => {
    const { partner, apiKey } = await makePartner('Old name');
    const renamed = await staff.partners.rename({ partnerId: partner.id, name: '  New name Ltd  ' });
    expect(renamed.name).toBe('New name Ltd');
    expect((await call(me, '/v1/me', apiKey)).body).toMatchObject({ data: { name: 'New name Ltd' } });
  });

  it('refuses empty and over-long names with a readable field error, for rename and create', async () => {
    const { partner } = await makePartner('Name limits');
    for (const name of ['   ', 'x'.repeat(101)]) {
      const err = await staff.partners.rename({ partnerId: partner.id, name }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'BAD_REQUEST' });
      const issues = ((err as { cause?: z.ZodError }).cause as z.ZodError).issues;
      expect(issues.map((i) => i.path)).toEqual([['name']]);
      expect(issues[0].message).toMatch(/^Name is (required|at most 100 characters)$/);
      await expect(staff.partners.create({ name })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    const err = await renamePartner({ partnerId: partner.id, name: 'x'.repeat(101) }, getDb()).catch((e: unknown) => e);
    expect(String(err)).toContain('Name is at most 100 characters');
    // 100 characters is fine.
    expect((await createPartner({ name: 'y'.repeat(100) }, getDb())).name).toHaveLength(100);
    expect((await staff.partners.get({ partnerId: partner.id })).name).toContain('Name limits');
  });

  it('answers NOT_FOUND for an unknown partner', async () => {
    await expect(staff.partners.rename({ partnerId: 'ptr_nope', name: 'X' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
