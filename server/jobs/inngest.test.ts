import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getDb, getSql } from '@/db';
import { setEnvInFile } from '@/server/testing/env';
import { makePartner } from '@/server/testing/fixtures';
import { Receiver } from '@/server/testing/receiver';
import { enqueueWebhook, getMessage, upsertEndpoint } from '@/server/modules/webhooks';
import { eventName, InngestJobProvider, inngestFunctions } from './inngest';
import { allJobs } from './registry';
import { defineJob } from './types';

const client = new Inngest({ id: 'encore-test', isDev: true });
const functions = inngestFunctions(client, allJobs());

setEnvInFile({ ALLOW_PRIVATE_PARTNER_URLS: '1' });

type FnOpts = { id: string; retries?: number; triggers: ({ event: string } | { cron: string })[] };
const optsOf = (fn: (typeof functions)[number]) => (fn as unknown as { opts: FnOpts }).opts;

describe('Inngest wiring', () => {
  it('makes one function per definition, with its id, event trigger, cron and retries', () => {
    expect(functions).toHaveLength(allJobs().length);
    allJobs().forEach((def, i) => {
      const opts = optsOf(functions[i]);
      expect(functions[i].id()).toBe(def.id);
      expect(opts.triggers).toContainEqual({ event: eventName(def) });
      if (def.cron) expect(opts.triggers).toContainEqual({ cron: def.cron });
      expect(opts.retries).toBe(def.retries ?? 3);
    });
    expect(eventName({ id: 'webhooks.dispatch' })).toBe('encore/webhooks.dispatch');
  });

  it('runs the real webhook dispatch definition when its event arrives', async () => {
    const receiver = await new Receiver().start();
    const { partner } = await makePartner('Inngest run');
    await upsertEndpoint({ partnerId: partner.id, url: receiver.url }, getDb());
    try {
      const id = await enqueueWebhook(getDb(), partner.id, {
        family: 'ticket',
        action: 'ticket.updated',
        data: { id: 'I-1', newOwnerEmail: 'b@example.com', oldOwnerEmail: null },
      });
      const fn = functions[allJobs().findIndex((j) => j.id === 'webhooks.dispatch')];
      const t = new InngestTestEngine({ function: fn });
      const { result } = await t.execute({ events: [{ name: 'encore/webhooks.dispatch', data: { input: {} } }] });
      expect(result).toMatchObject({ delivered: expect.any(Number) });
      expect((await getMessage(partner.id, id, getDb())).message.status).toBe('delivered');
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toContain(id);
    } finally {
      await getSql()`update webhook_endpoints set enabled = false where partner_id = ${partner.id}`;
      await receiver.stop();
    }
  });

  it('sleeps until runAt before running a delayed job, and validates input with the definition', async () => {
    const seen: unknown[] = [];
    const def = defineJob({
      id: 'test.inngest-delayed',
      description: 'test',
      input: z.object({ ticketId: z.string() }),
      async run(input) {
        seen.push(input);
        return 'ran';
      },
    });
    const [fn] = inngestFunctions(client, [def]);
    const runAt = new Date(Date.now() + 60_000).toISOString();
    const delayed = await new InngestTestEngine({ function: fn }).execute({
      events: [{ name: eventName(def), data: { input: { ticketId: 'T-0' }, runAt } }],
      steps: [{ id: 'wait-until-due', handler: () => null }],
    });
    expect(delayed.ctx.step.sleepUntil).toHaveBeenCalledWith('wait-until-due', runAt);
    expect(delayed.result).toBe('ran');

    const { result } = await new InngestTestEngine({ function: fn }).execute({
      events: [{ name: eventName(def), data: { input: { ticketId: 'T-9' } } }],
    });
    expect(result).toBe('ran');
    expect(seen).toEqual([{ ticketId: 'T-0' }, { ticketId: 'T-9' }]);
    const { error } = await new InngestTestEngine({ function: fn }).execute({
      events: [{ name: eventName(def), data: { input: { ticketId: 42 } } }],
    });
    expect(error).toBeTruthy();
  });

  it('sends the event with input and runAt to the Inngest event API over HTTP', async () => {
    const received: { path: string; body: unknown }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(body || 'null') });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ids: ['evt_1'], status: 200 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const provider = new InngestJobProvider(new Inngest({ id: 'encore-test', isDev: true, baseUrl: base }));
      const dispatch = allJobs().find((j) => j.id === 'webhooks.dispatch')!;
      const runAt = new Date(Date.now() + 5_000);
      await provider.send(dispatch.id, {}, { runAt });
      expect(received).toHaveLength(1);
      expect(received[0].path).toMatch(/^\/e\//);
      const [event] = received[0].body as { name: string; data: { input: unknown; runAt: string } }[];
      expect(event.name).toBe('encore/webhooks.dispatch');
      expect(event.data).toEqual({ input: {}, runAt: runAt.toISOString() });

      // Several jobs go in one call, each with its dedupe id.
      await provider.sendMany([
        { name: 'marketplace.expireIntention', input: { intentionId: 'bi_1' }, opts: { runAt, singletonKey: 'bi_1' } },
        { name: 'marketplace.expireIntention', input: { intentionId: 'bi_2' }, opts: { runAt, singletonKey: 'bi_2' } },
      ]);
      expect(received).toHaveLength(2);
      const events = received[1].body as { id: string; name: string; data: { input: unknown; runAt: string } }[];
      expect(events).toMatchObject([
        {
          id: `marketplace.expireIntention:bi_1:${runAt.getTime()}`,
          name: 'encore/marketplace.expireIntention',
          data: { input: { intentionId: 'bi_1' }, runAt: runAt.toISOString() },
        },
        {
          id: `marketplace.expireIntention:bi_2:${runAt.getTime()}`,
          name: 'encore/marketplace.expireIntention',
          data: { input: { intentionId: 'bi_2' }, runAt: runAt.toISOString() },
        },
      ]);
    } finally {
      server.close();
    }
  });
});
