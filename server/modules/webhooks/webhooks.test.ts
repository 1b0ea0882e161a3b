import { spawn } from 'node:child_process';
import dns from 'node:dns';
import os from 'node:os';
import postgres from 'postgres';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { resetEnvCache } from '@/server/env';
import { LocalJobProvider } from '@/server/jobs/local';
import { isPrivateAddress } from '@/server/lib/outbound';
import { allJobs } from '@/server/jobs/registry';
import { Receiver } from '@/server/testing/receiver';
import { makePartner } from '@/server/testing/fixtures';
import { type AttemptResult, claim, dispatchDue, LEASE_MS, record } from './delivery';
import { FAST_RETRIES, retryDelayMs } from './schedule';
import { createChannel, getChannel, setChannelDisabled, updateChannel } from '@/server/modules/partners';
import { getMessage, listMessages, retryNow, sendChannelTestMessage, sendTestMessage } from './delivery-log';
import { upsertEndpoint } from './endpoints';
import type { PartnerWebhookMessage } from './messages';
import { enqueueWebhook } from './outbox';

const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(() => {
  process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
  resetEnvCache();
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(() => {
  delete process.env.ALLOW_PRIVATE_PARTNER_URLS;
  resetEnvCache();
});

/** A partner with an enabled endpoint pointing at a fresh receiver; disabled again after the test. */
async function setup(opts: { secretHeader?: [string, string] } = {}) {
  const receiver = await new Receiver().start();
  const { partner } = await makePartner('Webhooks');
  const { signingSecret } = await upsertEndpoint(
    {
      partnerId: partner.id,
      url: receiver.url,
      enabled: true,
      secretHeaderName: opts.secretHeader?.[0],
      secretHeaderValue: opts.secretHeader?.[1],
    },
    getDb(),
  );
  cleanups.push(
    () => receiver.stop(),
    () => getSql()`update webhook_endpoints set enabled = false where partner_id = ${partner.id}`,
  );
  return { partner, receiver, signingSecret: signingSecret! };
}

const ticketUpdated = (id: string): PartnerWebhookMessage => ({
  family: 'ticket',
  action: 'ticket.updated',
  data: { id, newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
});

describe('retry schedule', () => {
  it('starts at 5 s, grows to 8 min by the 50th retry, then waits 12 to 24 hours, forever', () => {
    expect(retryDelayMs(1)).toBe(5_000);
    expect(retryDelayMs(FAST_RETRIES)).toBe(8 * 60_000);
    for (let n = 2; n <= FAST_RETRIES; n++) expect(retryDelayMs(n)).toBeGreaterThan(retryDelayMs(n - 1));
    expect(retryDelayMs(51, () => 0)).toBe(12 * 3_600_000);
    expect(retryDelayMs(51, () => 0.9999)).toBeGreaterThan(23.99 * 3_600_000);
    for (const n of [51, 52, 500, 10_000]) {
      const d = retryDelayMs(n);
      expect(d).toBeGreaterThanOrEqual(12 * 3_600_000);
      expect(d).toBeLessThanOrEqual(24 * 3_600_000);
    }
    expect(() => retryDelayMs(0)).toThrow(RangeError);
  });
});

describe('webhook delivery', () => {
  it('retries after each failure (500, 500, 503) on the schedule until a 200, logging four attempts', async () => {
    const { partner, receiver } = await setup();
    receiver.reply(500, 500, { status: 503, body: 'maintenance' }, 200);
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-1'));
    let now = new Date(Date.now() + 1000);
    const expectedDue: number[] = [];

    for (let attempt = 1; attempt <= 4; attempt++) {
      // Nothing is sent a millisecond before the message is due.
      if (attempt > 1) {
        const early = await dispatchDue(getSql(), { now: new Date(now.getTime() - 1) });
        expect(early.delivered + early.failed).toBe(0);
      }
      const r = await dispatchDue(getSql(), { now });
      expect(r.delivered + r.failed).toBe(1);
      const { message } = await getMessage(partner.id, id, getDb());
      if (attempt < 4) {
        expect(message.status).toBe('pending');
        expect(message.nextAttemptAt.getTime()).toBe(now.getTime() + retryDelayMs(attempt));
        expectedDue.push(message.nextAttemptAt.getTime() - now.getTime());
        now = message.nextAttemptAt;
      } else {
        expect(message.status).toBe('delivered');
        expect(message.deliveredAt).toBeInstanceOf(Date);
      }
    }
    expect(expectedDue).toEqual([5_000, retryDelayMs(2), retryDelayMs(3)]);
    expect(receiver.requests).toHaveLength(4);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    const { attempts } = await getMessage(partner.id, id, getDb());
    expect(attempts.map((a) => [a.attemptNo, a.statusCode, a.success])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 503, false],
      [4, 200, true],
    ]);
    expect(attempts[2].responseBody).toBe('maintenance');
    // Once delivered, nothing more is sent.
    await dispatchDue(getSql(), { now: new Date(now.getTime() + 86_400_000) });
    expect(receiver.requests).toHaveLength(4);
  });

  it('counts 301 (never followed) and 400 as failures, and 201/202/204 as success', async () => {
    const { partner, receiver } = await setup();
    const elsewhere = await new Receiver().start();
    cleanups.push(() => elsewhere.stop());
    receiver.reply({ status: 301, headers: { location: elsewhere.url } }, 400, 204);
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-2'));
    let now = new Date(Date.now() + 1000);
    for (let i = 0; i < 3; i++) {
      await dispatchDue(getSql(), { now });
      now = (await getMessage(partner.id, id, getDb())).message.nextAttemptAt;
    }
    const { message, attempts } = await getMessage(partner.id, id, getDb());
    expect(attempts.map((a) => a.statusCode)).toEqual([301, 400, 204]);
    expect(attempts.map((a) => a.success)).toEqual([false, false, true]);
    expect(attempts[0].error).toContain('redirect');
    expect(message.status).toBe('delivered');
    expect(elsewhere.requests).toHaveLength(0);

    for (const status of [201, 202]) {
      receiver.reply(status);
      const other = await enqueueWebhook(getDb(), partner.id, ticketUpdated(`T-${status}`));
      await dispatchDue(getSql(), { now });
      expect((await getMessage(partner.id, other, getDb())).message.status).toBe('delivered');
    }
  });

  it('sends the spec body with Standard Webhooks signature headers and the partner secret header', async () => {
    const { partner, receiver, signingSecret } = await setup({ secretHeader: ['X-Partner-Secret', 's3cr3t-value'] });
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-3'));
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-partner-secret']).toBe('s3cr3t-value');
    expect(JSON.parse(req.body)).toEqual(ticketUpdated('T-3'));
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    expect(headers['webhook-id']).toBe(id);
    expect(new Webhook(signingSecret).verify(req.body, headers)).toEqual(ticketUpdated('T-3'));
    const wrong = `whsec_${Buffer.from('a different secret of 24b').toString('base64')}`;
    expect(() => new Webhook(wrong).verify(req.body, headers)).toThrow();
    expect(() => new Webhook(signingSecret).verify(req.body.replace('T-3', 'T-4'), headers)).toThrow();

    // The attempt keeps the headers as sent, for the dashboard; the shared secret's value is masked.
    const [logged] = (await getMessage(partner.id, id, getDb())).attempts;
    expect(logged.requestHeaders).toEqual({
      'content-type': 'application/json',
      ...headers,
      'x-partner-secret': '••••••••',
    });
  });

  it('holds messages while the endpoint is disabled (or missing) and delivers them once enabled', async () => {
    const { partner, receiver } = await setup();
    await upsertEndpoint({ partnerId: partner.id, url: receiver.url, enabled: false }, getDb());
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-5'));
    const far = new Date(Date.now() + 7 * 86_400_000);
    await dispatchDue(getSql(), { now: far });
    expect(receiver.requests).toHaveLength(0);
    expect((await getMessage(partner.id, id, getDb())).message).toMatchObject({ status: 'pending', attempts: 0 });

    const { partner: noEndpoint } = await makePartner('No endpoint yet');
    const waiting = await enqueueWebhook(getDb(), noEndpoint.id, ticketUpdated('T-6'));
    await dispatchDue(getSql(), { now: far });
    expect((await getMessage(noEndpoint.id, waiting, getDb())).message.status).toBe('pending');

    await upsertEndpoint({ partnerId: partner.id, url: receiver.url, enabled: true }, getDb());
    await dispatchDue(getSql(), { now: far });
    expect((await getMessage(partner.id, id, getDb())).message.status).toBe('delivered');
    expect(receiver.requests).toHaveLength(1);
  });

  it('writes the message in the caller transaction: a rollback leaves no message', async () => {
    const { partner } = await setup();
    await expect(
      getDb().transaction(async (tx) => {
        await enqueueWebhook(tx, partner.id, ticketUpdated('T-7'));
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect((await listMessages({ partnerId: partner.id }, getDb())).total).toBe(0);
  });

  it('loses none of 1,000 messages sent while the receiver is down', async () => {
    const { partner, receiver } = await setup();
    const port = receiver.port;
    await receiver.stop(); // connection refused from now on
    const ids = new Set<string>();
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) ids.add(await enqueueWebhook(tx, partner.id, ticketUpdated(`T-bulk-${i}`)));
    });
    const now = new Date(Date.now() + 1000);
    const down = await dispatchDue(getSql(), { now });
    expect(down).toMatchObject({ delivered: 0, failed: 1000 });

    const back = await new Receiver().start(port);
    cleanups.push(() => back.stop());
    const up = await dispatchDue(getSql(), { now: new Date(now.getTime() + 5_000) });
    expect(up).toMatchObject({ delivered: 1000, failed: 0 });
    const received = new Set(back.requests.map((r) => String(r.headers['webhook-id'])));
    expect(received).toEqual(ids);
    const { total } = await listMessages({ partnerId: partner.id, status: 'delivered' }, getDb());
    expect(total).toBe(1000);
  });

  it('delivers 600 messages exactly once with two dispatchers claiming and recording in small batches', async () => {
    const { partner, receiver } = await setup();
    const ids = new Set<string>();
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < 600; i++) ids.add(await enqueueWebhook(tx, partner.id, ticketUpdated(`T-pair-${i}`)));
    });
    const opts = { now: new Date(Date.now() + 1000), batchSize: 40, concurrency: 8, writeBatchSize: 25 };
    const [a, b] = await Promise.all([dispatchDue(getSql(), opts), dispatchDue(getSql(), opts)]);
    expect(a.delivered + b.delivered).toBe(600);
    expect(a.failed + b.failed).toBe(0);
    const sent = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(sent).toHaveLength(600);
    expect(new Set(sent)).toEqual(ids);
    // Each delivered message keeps its one attempt on its row; no attempt rows (nothing failed), nothing left due.
    const [logged] = await getSql()<{ kept: number; rows: number; due: number }[]>`
      select (select count(*)::int from webhook_messages
                where partner_id = ${partner.id} and delivered_attempt is not null and attempts = 1) as kept,
             (select count(*)::int from webhook_attempts where partner_id = ${partner.id}) as rows,
             (select count(*)::int from webhook_due where partner_id = ${partner.id}) as due`;
    expect(logged).toEqual({ kept: 600, rows: 0, due: 0 });
    expect((await listMessages({ partnerId: partner.id, status: 'delivered' }, getDb())).total).toBe(600);
  });

  it('stops claiming at its budget, delivers what it claimed, and leaves the rest due', async () => {
    const { partner, receiver } = await setup();
    for (let i = 0; i < 25; i++) await enqueueWebhook(getDb(), partner.id, ticketUpdated(`T-budget-${i}`));
    const now = new Date(Date.now() + 1000);
    const first = await dispatchDue(getSql(), { now, batchSize: 10, budgetMs: 0 });
    expect(first).toMatchObject({ delivered: 10, failed: 0 });
    expect(first.nextDueAt!.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(receiver.requests).toHaveLength(10);
    expect(await dispatchDue(getSql(), { now, batchSize: 10 })).toMatchObject({
      delivered: 15,
      failed: 0,
      nextDueAt: null,
    });
    expect(receiver.requests).toHaveLength(25);
  });

  it('keeps a message claimed by a dispatcher that died pending, and delivers it once the lease ends', async () => {
    const { partner, receiver } = await setup();
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-lease'));
    const now = new Date(Date.now() + 1000);
    // A dispatcher claims the message and dies before its attempt is recorded.
    expect((await claim(getSql(), now, 10)).map((m) => m.id)).toEqual([id]);

    const during = await dispatchDue(getSql(), { now: new Date(now.getTime() + LEASE_MS - 1) });
    expect(during).toMatchObject({ delivered: 0, failed: 0 });
    expect(during.nextDueAt?.getTime()).toBe(now.getTime() + LEASE_MS);
    expect(receiver.requests).toHaveLength(0);
    expect((await getMessage(partner.id, id, getDb())).message).toMatchObject({ status: 'pending', attempts: 0 });

    const after = await dispatchDue(getSql(), { now: new Date(now.getTime() + LEASE_MS) });
    expect(after).toMatchObject({ delivered: 1, failed: 0, nextDueAt: null });
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([id]);
    const { message, attempts } = await getMessage(partner.id, id, getDb());
    expect(message.status).toBe('delivered');
    expect(attempts.map((a) => [a.attemptNo, a.success])).toEqual([[1, true]]);
  });

  it("never walks a held backlog: a partner without an endpoint costs other partners' claims nothing", async () => {
    const { partner, receiver } = await setup();
    const { partner: held } = await makePartner('No endpoint yet');
    // 2,000 messages waiting for an endpoint, all due before the enabled partner's one.
    await getSql()`
      with m as (
        insert into webhook_messages (id, partner_id, family, action, data, created_at)
        select 'msg_held_' || ${held.id} || '_' || g, ${held.id}, 'test', 'test.ping', '{}', now() - interval '1 hour'
        from generate_series(1, 2000) g
        returning id, partner_id
      )
      insert into webhook_due (message_id, partner_id, due_at) select id, partner_id, now() - interval '1 hour' from m`;
    cleanups.push(() => getSql()`delete from webhook_messages where partner_id = ${held.id}`);
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-behind-backlog'));

    // The index entries the claim reads, from its own plan (auto_explain with ANALYZE, handed over as a
    // notice). PostgreSQL's shared statistics would count other connections' reads too, whenever they flush
    // them (up to 10 s late).
    const plans: unknown[] = [];
    const one = postgres(process.env.DATABASE_URL!, {
      max: 1,
      onnotice: (n) => {
        if (n.message.includes('"Plan"')) plans.push(JSON.parse(n.message.slice(n.message.indexOf('{'))));
      },
    });
    cleanups.push(() => one.end());
    await one`load 'auto_explain'`;
    for (const [name, value] of Object.entries({
      log_min_duration: '0',
      log_analyze: 'on',
      log_format: 'json',
      log_level: 'notice',
    }))
      await one`select set_config(${`auto_explain.${name}`}, ${value}, false)`;
    const claimed = await claim(one, new Date(Date.now() + 1000), 10);
    let read = 0;
    const walk = (node: Record<string, unknown>) => {
      if (node['Index Name'] === 'webhook_due_partner_idx') {
        read +=
          ((node['Actual Rows'] as number) + ((node['Rows Removed by Filter'] as number) ?? 0)) *
          (node['Actual Loops'] as number);
      }
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    for (const plan of plans) walk((plan as { Plan: Record<string, unknown> }).Plan);

    expect(claimed.map((m) => m.id)).toContain(id);
    expect(claimed.some((m) => m.partner_id === held.id)).toBe(false);
    // Walking the backlog in due order would read its 2,000 entries first.
    expect(read).toBeGreaterThan(0); // the plan was seen
    expect(read).toBeLessThan(500);
    expect(await dispatchDue(getSql(), { now: new Date(Date.now() + LEASE_MS + 1000) })).toMatchObject({
      delivered: 1,
    });
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([id]);
  });

  it('keeps a delivery when a dispatcher whose lease ran out records a late failure for the same message', async () => {
    const { partner, receiver } = await setup();
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-late'));
    const now = new Date(Date.now() + 1000);
    // Dispatcher A claims and stalls past its lease; B claims again and delivers.
    const [claimedByA] = await claim(getSql(), now, 10);
    expect(claimedByA.id).toBe(id);
    expect(await dispatchDue(getSql(), { now: new Date(now.getTime() + LEASE_MS) })).toMatchObject({ delivered: 1 });
    // A's attempt finally times out and is recorded.
    const late: AttemptResult = {
      id,
      attemptNo: 1,
      url: receiver.url,
      startedAt: now,
      durationMs: 10_000,
      statusCode: null,
      error: 'timeout: No complete answer within 10000 ms',
      responseBody: null,
      requestHeaders: { 'webhook-id': id },
      success: false,
      nextAttemptAt: new Date(now.getTime() + 5000),
    };
    await record(getSql(), [late]);

    const { message, attempts } = await getMessage(partner.id, id, getDb());
    expect(message.status).toBe('delivered');
    // Both attempts are logged; nothing is queued again, so nothing is sent twice more.
    expect(attempts.map((a) => [a.attemptNo, a.success])).toEqual([
      [1, false],
      [1, true],
    ]);
    const [{ due }] = await getSql()<{ due: number }[]>`
      select count(*)::int as due from webhook_due where message_id = ${id}`;
    expect(due).toBe(0);
    expect(await dispatchDue(getSql(), { now: new Date(now.getTime() + 2 * LEASE_MS) })).toMatchObject({
      delivered: 0,
    });
    expect(receiver.requests).toHaveLength(1);
  });

  it('records answers PostgreSQL text cannot hold as they are (a NUL, an emoji cut at 1 KiB)', async () => {
    const { partner, receiver } = await setup();
    receiver.reply({ status: 200, body: 'a\u0000b' }, { status: 500, body: `${'x'.repeat(1023)}😀` });
    const now = new Date(Date.now() + 1000);
    const nul = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-nul'));
    expect(await dispatchDue(getSql(), { now })).toMatchObject({ delivered: 1, failed: 0 });
    const cut = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-cut'));
    expect(await dispatchDue(getSql(), { now })).toMatchObject({ delivered: 0, failed: 1 });

    expect((await getMessage(partner.id, nul, getDb())).attempts[0].responseBody).toBe('ab');
    const { message, attempts } = await getMessage(partner.id, cut, getDb());
    expect(message).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(attempts[0].responseBody).toBe(`${'x'.repeat(1023)}\ufffd`);
  });

  it('reads and replays a delivered attempt kept in the earlier form (the whole header map)', async () => {
    const { partner } = await setup();
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-earlier'));
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    const earlier = {
      url: 'https://partner.example/hooks',
      durationMs: 7,
      responseBody: 'ok',
      requestHeaders: { 'content-type': 'application/json', 'webhook-id': id, 'x-kept': 'as sent' },
    };
    await getSql()`update webhook_messages set delivered_attempt = ${JSON.stringify(earlier)}::json where id = ${id}`;
    const shown = {
      success: true,
      url: earlier.url,
      durationMs: 7,
      responseBody: 'ok',
      requestHeaders: earlier.requestHeaders,
    };
    expect((await getMessage(partner.id, id, getDb())).attempts).toMatchObject([shown]);
    // A replay moves it to a row unchanged.
    await retryNow(partner.id, id, getDb());
    const { attempts } = await getMessage(partner.id, id, getDb());
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject(shown);
    expect(attempts[0].id).toBeGreaterThan(0);
  });

  it('retries now, replays a delivered message with the same id, and sends test messages', async () => {
    const { partner, receiver } = await setup();
    receiver.reply(500);
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-8'));
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    await retryNow(partner.id, id, getDb());
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect((await getMessage(partner.id, id, getDb())).message.status).toBe('delivered');
    await retryNow(partner.id, id, getDb());
    // A replay is pending again (and due) until its attempt is recorded.
    expect((await getMessage(partner.id, id, getDb())).message).toMatchObject({ status: 'pending', deliveredAt: null });
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([id, id, id]);
    // Every attempt shows, with the signature it was sent with: the first delivery moved to a row at the
    // replay, the replay's own kept on the message.
    const { message, attempts } = await getMessage(partner.id, id, getDb());
    expect(message).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(attempts.map((a) => [a.attemptNo, a.statusCode, a.success])).toEqual([
      [1, 500, false],
      [2, 200, true],
      [3, 200, true],
    ]);
    expect(attempts.map((a) => a.requestHeaders?.['webhook-signature'])).toEqual(
      receiver.requests.map((r) => r.headers['webhook-signature']),
    );

    const testId = await sendTestMessage(partner.id, getDb());
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect(receiver.bodies().at(-1)).toMatchObject({
      family: 'test',
      action: 'test.ping',
      data: { partnerId: partner.id },
    });
    expect((await getMessage(partner.id, testId, getDb())).message.status).toBe('delivered');
  });

  it("never shows or retries another partner's messages", async () => {
    const { partner } = await setup();
    const { partner: other } = await makePartner('Other');
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-9'));
    await expect(getMessage(other.id, id, getDb())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(retryNow(other.id, id, getDb())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listMessages({ partnerId: other.id }, getDb())).total).toBe(0);
  });

  it('refuses endpoint URLs on private addresses unless allowed', async () => {
    const { partner } = await makePartner('Private URL');
    delete process.env.ALLOW_PRIVATE_PARTNER_URLS;
    resetEnvCache();
    try {
      const urls = [
        'http://127.0.0.1:9/x',
        'https://10.1.2.3/x',
        'https://169.254.169.254/latest',
        'https://localhost/x',
      ];
      // The machine's own name resolves to 127.0.0.1 through /etc/hosts on this kind of machine:
      // a name is refused for what it resolves to, not only for how it looks.
      const own = await dns.promises.lookup(os.hostname(), { all: true }).catch(() => []);
      if (own.length > 0 && own.every((a) => isPrivateAddress(a.address))) urls.push(`https://${os.hostname()}/x`);
      for (const url of urls) {
        await expect(upsertEndpoint({ partnerId: partner.id, url }, getDb())).rejects.toMatchObject({
          code: 'BAD_REQUEST',
        });
      }
    } finally {
      process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
      resetEnvCache();
    }
  });
});

describe('webhook dispatch on the local job provider', () => {
  it('delivers an enqueued message through the real job definition when kicked', async () => {
    const { partner, receiver } = await setup();
    const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
    await provider.start(allJobs());
    cleanups.push(() => provider.stop());
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-10'));
    await provider.send('webhooks.dispatch', {});
    await expect
      .poll(async () => (await getMessage(partner.id, id, getDb())).message.status, { timeout: 10_000 })
      .toBe('delivered');
    expect(receiver.requests).toHaveLength(1);
  });

  // One process (node with the tsx loader), so SIGKILL kills the worker itself, as a crash would.
  const startWorker = () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/testing/worker-child.ts', process.env.DATABASE_URL!],
      {
        stdio: ['pipe', process.env.WORKER_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
      },
    );
    cleanups.push(async () => child.kill('SIGKILL'));
    return child;
  };

  it('takes over within a minute a message a killed instance held in the middle of its attempt', async () => {
    const { partner, receiver } = await setup();
    // The first attempt hangs (under the attempt's timeout): the instance holds the message when it dies.
    receiver.reply({ status: 200, delayMs: 9_000 });
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-12'));
    const worker = startWorker();
    await expect.poll(() => receiver.requests.length, { timeout: 60_000 }).toBe(1);
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    const killedAt = Date.now();
    // A live instance: this process's job provider (the minute sweep alone would take up to 60 s more).
    const provider = new LocalJobProvider(process.env.DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
    await provider.start(allJobs());
    cleanups.push(() => provider.stop());
    await expect
      .poll(async () => (await getMessage(partner.id, id, getDb())).message.status, { timeout: 60_000 })
      .toBe('delivered');
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    // Not sent again while the dead instance's lease stood.
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].at - receiver.requests[0].at).toBeGreaterThan(LEASE_MS / 2);
  }, 150_000);

  it('still delivers a message after the app is killed between attempts', async () => {
    const { partner, receiver } = await setup();
    receiver.reply(500);
    const id = await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-11'));

    const first = startWorker();
    // A bound, not a duration: a worker starting on a busy machine (tsx compiling, pg-boss starting) can
    // take well over 15 s before its first attempt.
    await expect
      .poll(async () => (await getMessage(partner.id, id, getDb())).attempts.length, { timeout: 60_000 })
      .toBe(1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    startWorker(); // a new app instance: the retry (5 s after the failure) is still delivered
    // Due 5 s after the failure; the new instance's dispatch (or, at the latest, the minute sweep) sends it.
    try {
      await expect
        .poll(async () => (await getMessage(partner.id, id, getDb())).message.status, { timeout: 75_000 })
        .toBe('delivered');
    } catch (err) {
      // Say what the queue did, so a failure here can be understood from the CI log alone.
      const jobs = await getSql()`select state, start_after::text, started_on::text, output::text
        from pgboss.job where name = 'webhooks.dispatch' order by created_on`;
      throw new Error(`${(err as Error).message}\njobs: ${JSON.stringify(jobs, null, 1)}`);
    }
    const { attempts } = await getMessage(partner.id, id, getDb());
    expect(attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(attempts[1].startedAt.getTime() - attempts[0].startedAt.getTime()).toBeGreaterThanOrEqual(4_900);
  }, 180_000);
});

describe('channel webhooks', () => {
  it('go to the channel’s URL signed with its secret, not to the partner; held while it has no URL or is disabled', async () => {
    const { partner, receiver } = await setup();
    const hub = await new Receiver().start();
    cleanups.push(() => hub.stop());
    const channel = await createChannel({ partnerId: partner.id, name: 'Hub' }, getDb());
    const id = await sendChannelTestMessage(partner.id, channel.id, getDb());
    await enqueueWebhook(getDb(), partner.id, ticketUpdated('T-9'));

    // No URL yet: the partner's message goes, the channel's waits.
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect(receiver.requests.map((r) => JSON.parse(r.body).action)).toEqual(['ticket.updated']);
    expect((await getMessage(partner.id, id, getDb())).message).toMatchObject({ status: 'pending', attempts: 0 });

    await updateChannel({ partnerId: partner.id, channelId: channel.id, name: 'Hub', webhookUrl: hub.url }, getDb());
    await setChannelDisabled({ partnerId: partner.id, channelId: channel.id, disabled: true }, getDb());
    await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect(hub.requests).toHaveLength(0);

    await setChannelDisabled({ partnerId: partner.id, channelId: channel.id, disabled: false }, getDb());
    const r = await dispatchDue(getSql(), { now: new Date(Date.now() + 1000) });
    expect(r.delivered).toBe(1);
    expect(hub.requests).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    const [req] = hub.requests;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h])]),
    );
    const { signingSecret } = await getChannel(partner.id, channel.id, getDb());
    expect(new Webhook(signingSecret).verify(req.body, headers)).toMatchObject({
      family: 'test',
      action: 'test.ping',
      data: { partnerId: partner.id, channelId: channel.id },
    });
    expect(headers['webhook-id']).toBe(id);

    // The channel's log has it; the partner's own log does not.
    expect(
      (await listMessages({ partnerId: partner.id, channelId: channel.id }, getDb())).items.map((m) => m.id),
    ).toEqual([id]);
    const own = await listMessages({ partnerId: partner.id }, getDb());
    expect(own.items.map((m) => m.action)).toEqual(['ticket.updated']);
    expect((await getMessage(partner.id, id, getDb())).attempts).toMatchObject([{ url: hub.url, success: true }]);
    // Another partner cannot send to this channel.
    const other = await makePartner('Other');
    await expect(sendChannelTestMessage(other.partner.id, channel.id, getDb())).rejects.toThrow('Channel not found');
  });
});
