import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import { newId } from '@/server/lib/ids';
import { type AuditActor, audited, changedFields, keyActor, listAuditEntries, recordAudit, staffActor } from './index';
import { redactSecrets } from './audit-log';

const actor: AuditActor = staffActor({ id: 'stf_audit', email: 'auditor@encore.test' });

/** A partner id of its own per test: the log is shared by every test in the run. */
const freshPartner = () => newId('ptr');

describe('recordAudit', () => {
  it('records who, what, the target and before/after, in the transaction of the change', async () => {
    const partnerId = freshPartner();
    await getDb().transaction((tx) =>
      recordAudit(tx, {
        actor,
        partnerId,
        action: 'partner.fees.updated',
        target: { type: 'partner', id: partnerId },
        before: { primarySalesFee: null },
        after: { primarySalesFee: { type: 'FIXED', value: 2 } },
        requestId: 'req_1',
      }),
    );
    const { items } = await listAuditEntries({ partnerId }, getDb());
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      actorKind: 'staff',
      actorId: 'stf_audit',
      actorLabel: 'auditor@encore.test',
      partnerId,
      action: 'partner.fees.updated',
      targetType: 'partner',
      targetId: partnerId,
      before: { primarySalesFee: null },
      after: { primarySalesFee: { type: 'FIXED', value: 2 } },
      requestId: 'req_1',
    });
    expect(items[0].at).toBeInstanceOf(Date);
  });

  it('leaves no record when the change rolls back', async () => {
    const partnerId = freshPartner();
    await expect(
      audited(
        async ({ tx }) => {
          await recordAudit(tx, {
            actor,
            partnerId,
            action: 'inner.recorded',
            target: { type: 'partner', id: partnerId },
          });
          throw new Error('the change failed');
        },
        { actor, partnerId, action: 'partner.renamed', target: { type: 'partner', id: partnerId } },
        getDb(),
      ),
    ).rejects.toThrow('the change failed');
    expect((await listAuditEntries({ partnerId }, getDb())).items).toEqual([]);

    // The same change that commits is recorded once, with what it answered as "after".
    await audited(
      async () => ({ name: 'New name' }),
      {
        actor,
        partnerId,
        action: 'partner.renamed',
        target: { type: 'partner', id: partnerId },
        before: async () => ({ name: 'Old name' }),
      },
      getDb(),
    );
    const { items } = await listAuditEntries({ partnerId }, getDb());
    expect(items.map((i) => [i.action, i.before, i.after])).toEqual([
      ['partner.renamed', { name: 'Old name' }, { name: 'New name' }],
    ]);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const partnerId = freshPartner();
    await getDb().transaction((tx) =>
      recordAudit(tx, { actor, partnerId, action: 'api_key.created', target: { type: 'api_key', id: 'key_1' } }),
    );
    const db = getDb();
    // PostgreSQL's own message (drizzle wraps it as the cause).
    const refusal = (query: ReturnType<typeof sql>) =>
      db.execute(query).then(
        () => 'accepted',
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(await refusal(sql`update audit_log set action = 'x' where partner_id = ${partnerId}`)).toBe(
      'audit_log is append-only: UPDATE refused',
    );
    expect(await refusal(sql`delete from audit_log where partner_id = ${partnerId}`)).toBe(
      'audit_log is append-only: DELETE refused',
    );
    expect(await refusal(sql`truncate audit_log`)).toBe('audit_log is append-only: TRUNCATE refused');
    const { items } = await listAuditEntries({ partnerId }, db);
    expect(items.map((i) => i.action)).toEqual(['api_key.created']);
  });

  it('redacts secrets in before and after, whatever the caller passes', async () => {
    const partnerId = freshPartner();
    const authHeaderValue = 'integration-secret-value-123456';
    const signingSecret = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5';
    await getDb().transaction((tx) =>
      recordAudit(tx, {
        actor,
        partnerId,
        action: 'integration.updated',
        target: { type: 'integration', id: partnerId },
        before: { authHeaderName: 'X-Api-Key', authHeaderValue: null, passwordChanged: false },
        after: {
          authHeaderName: 'X-Api-Key',
          authHeaderValue,
          authHeaderValueHint: '…3456',
          endpoint: { signingSecret, secretHeaderValue: 'hdr-secret', secretHeaderName: 'X-Sig' },
          keys: ['sk_live_abcdefghijklmnop', 'sk_live_ab12cd'],
          passwordHash: '$2b$10$abc',
          passwordChanged: true,
        },
      }),
    );
    const [entry] = (await listAuditEntries({ partnerId }, getDb())).items;
    const stored = JSON.stringify(entry);
    for (const secret of [authHeaderValue, signingSecret, 'hdr-secret', 'sk_live_abcdefghijklmnop', '$2b$10$abc'])
      expect(stored).not.toContain(secret);
    expect(entry.after).toEqual({
      authHeaderName: 'X-Api-Key',
      authHeaderValue: '[redacted]',
      authHeaderValueHint: '…3456',
      endpoint: { signingSecret: '[redacted]', secretHeaderValue: '[redacted]', secretHeaderName: 'X-Sig' },
      // A whole key is a secret; its visible prefix (as the dashboard shows it) is not.
      keys: ['[redacted]', 'sk_live_ab12cd'],
      passwordHash: '[redacted]',
      passwordChanged: true,
    });
    // "None set" is not a secret: a null stays null, so the diff shows a value was set.
    expect(entry.before).toEqual({ authHeaderName: 'X-Api-Key', authHeaderValue: null, passwordChanged: false });
    expect(redactSecrets({ token: 'abc', tokenHash: 'def', label: 'sk_ch_1234567890abcdef', id: 'key_1' })).toEqual({
      token: '[redacted]',
      tokenHash: '[redacted]',
      label: '[redacted]',
      id: 'key_1',
    });
    // A member's two-factor secret (staff_users.totp_secret), in either spelling a row may come in.
    expect(
      redactSecrets({ totpSecret: 'JBSWY3DPEHPK3PXP', totp_secret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: null }),
    ).toEqual({ totpSecret: '[redacted]', totp_secret: '[redacted]', totpEnabledAt: null });
  });
});

describe('listAuditEntries', () => {
  it('pages newest first by keyset and filters by partner, actor, action, date and free text', async () => {
    const partnerId = freshPartner();
    const other = freshPartner();
    const byKey = keyActor({ keyId: 'key_x', keyPrefix: 'sk_live_ab12cd', kind: 'partner' });
    await getDb().transaction(async (tx) => {
      for (let i = 1; i <= 5; i++)
        await recordAudit(tx, {
          actor: i === 5 ? byKey : actor,
          partnerId,
          action: i % 2 ? 'banner.updated' : 'partner.fees.updated',
          target: { type: 'partner', id: partnerId },
          after: { note: `change ${i}` },
        });
      await recordAudit(tx, { actor, partnerId: other, action: 'banner.updated', target: { type: 'x', id: 'y' } });
    });
    const db = getDb();
    const first = await listAuditEntries({ partnerId, limit: 2 }, db);
    expect(first.items.map((i) => (i.after as { note: string }).note)).toEqual(['change 5', 'change 4']);
    const second = await listAuditEntries({ partnerId, limit: 2, cursor: first.nextCursor! }, db);
    expect(second.items.map((i) => (i.after as { note: string }).note)).toEqual(['change 3', 'change 2']);
    const third = await listAuditEntries({ partnerId, limit: 2, cursor: second.nextCursor! }, db);
    expect(third.items.map((i) => (i.after as { note: string }).note)).toEqual(['change 1']);
    expect(third.nextCursor).toBeNull();

    expect((await listAuditEntries({ partnerId, action: 'partner.fees' }, db)).items).toHaveLength(2);
    const byPrefix = await listAuditEntries({ partnerId, actor: 'sk_live_ab12' }, db);
    expect(byPrefix.items.map((i) => [i.actorKind, i.actorLabel])).toEqual([['partner_key', 'sk_live_ab12cd']]);
    expect((await listAuditEntries({ partnerId, q: 'change 3' }, db)).items).toHaveLength(1);
    // LIKE wildcards typed by staff match literally.
    expect((await listAuditEntries({ partnerId, q: '%' }, db)).items).toHaveLength(0);
    const today = new Date(new Date().toISOString().slice(0, 10));
    expect((await listAuditEntries({ partnerId, from: today, to: today }, db)).items).toHaveLength(5);
    const tomorrow = new Date(today.getTime() + 86_400_000);
    expect((await listAuditEntries({ partnerId, from: tomorrow }, db)).items).toHaveLength(0);
    expect((await listAuditEntries({ partnerId, to: new Date(today.getTime() - 86_400_000) }, db)).items).toHaveLength(
      0,
    );
  });
});

describe('changedFields', () => {
  it('lists the fields that differ, by dotted path', () => {
    expect(
      changedFields(
        { name: 'A', primarySalesFee: { type: 'FIXED', value: 1 }, returnOrigins: ['https://a.test'] },
        { name: 'A', primarySalesFee: { type: 'PERCENTAGE', value: 1 }, returnOrigins: [] },
      ),
    ).toEqual([
      { field: 'primarySalesFee.type', before: 'FIXED', after: 'PERCENTAGE' },
      { field: 'returnOrigins', before: ['https://a.test'], after: [] },
    ]);
    // A fee set where there was none: each of its fields, from nothing.
    expect(changedFields({ primarySalesFee: null }, { primarySalesFee: { type: 'FIXED', value: 2 } })).toEqual([
      { field: 'primarySalesFee.type', before: null, after: 'FIXED' },
      { field: 'primarySalesFee.value', before: null, after: 2 },
    ]);
    expect(changedFields({ name: 'A' }, { name: 'A' })).toEqual([]);
  });
});
