import { describe, expect, it } from 'vitest';
import { makePartner } from '@/server/testing/fixtures';
import { getDb, getSql } from '@/db';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { authenticateApiKey, forgetCheckedKeys } from './key-authentication';
import { listPartners, setPartnerDisabled } from './partners';

describe('partners service', () => {
  it('lists partners newest first with their active partner-key count, searchable and paginated', async () => {
    const tag = `Listing${Date.now()}`;
    const a = await makePartner(`${tag} Alpha`);
    const b = await makePartner(`${tag} Beta`);
    await createApiKey({ partnerId: b.partner.id, kind: 'partner', label: 'second' }, getDb());
    const [aKey] = (await listApiKeys(a.partner.id, getDb())).filter((k) => k.kind === 'partner');
    await revokeApiKey(a.partner.id, aKey.id, getDb());

    const found = await listPartners({ search: tag }, getDb());
    expect(found.total).toBe(2);
    expect(found.items.map((p) => p.id)).toEqual([b.partner.id, a.partner.id]);
    expect(found.items.map((p) => p.activeKeys)).toEqual([2, 0]);

    const page2 = await listPartners({ search: tag, page: 2, pageSize: 1 }, getDb());
    expect(page2).toMatchObject({ total: 2, page: 2, pageCount: 2 });
    expect(page2.items.map((p) => p.id)).toEqual([a.partner.id]);
  });

  it('treats LIKE wildcards in a search literally', async () => {
    const tag = `Wild${Date.now()}`;
    await makePartner(`${tag} 100% real`);
    await makePartner(`${tag} 100 real`);
    const found = await listPartners({ search: `${tag} 100%` }, getDb());
    expect(found.items).toHaveLength(1);
  });

  it('stores only a hash of each key and shows the secret once', async () => {
    const a = await makePartner('Hash');
    const { key, secret } = await createApiKey({ partnerId: a.partner.id, kind: 'channels', label: 'ch' }, getDb());
    expect(secret).toMatch(/^sk_ch_[0-9A-Za-z]{32}$/);
    expect(key.prefix).toBe(secret.slice(0, 12));
    expect(JSON.stringify(await listApiKeys(a.partner.id, getDb()))).not.toContain(secret);
  });

  it('remembers a checked key briefly, and forgets it at once when it is revoked or its partner disabled', async () => {
    const a = await makePartner('Remembered key');
    const { key, secret } = await createApiKey({ partnerId: a.partner.id, kind: 'partner', label: 'cached' }, getDb());
    expect((await authenticateApiKey(secret, getSql()))?.keyId).toBe(key.id);

    // Revoked behind this instance's back (another instance): still accepted from memory here…
    await getSql()`update api_keys set revoked_at = now() where id = ${key.id}`;
    expect((await authenticateApiKey(secret, getSql()))?.keyId).toBe(key.id);
    // …until the memory is dropped (time, or a revocation made on this instance).
    forgetCheckedKeys();
    expect(await authenticateApiKey(secret, getSql())).toBeNull();

    const { key: other, secret: otherSecret } = await createApiKey(
      { partnerId: a.partner.id, kind: 'partner' },
      getDb(),
    );
    expect((await authenticateApiKey(otherSecret, getSql()))?.partnerDisabled).toBe(false);
    await setPartnerDisabled({ partnerId: a.partner.id, disabled: true }, getDb());
    expect((await authenticateApiKey(otherSecret, getSql()))?.partnerDisabled).toBe(true);
    await revokeApiKey(a.partner.id, other.id, getDb());
    expect(await authenticateApiKey(otherSecret, getSql())).toBeNull();
  });
});
