import { describe, expect, it } from 'vitest';
import { feedEvent } from '@/server/modules/catalog';
import { verificationAnswer } from '@/server/modules/partners';
import { webhookMessage, webhookMessages } from '@/server/modules/webhooks';
import { POST as eventsPost } from '@/app/v1/events/route';
import {
  IDEMPOTENCY_REPLAY,
  feedExample,
  idempotencyCall,
  verificationExample,
  webhookExamples,
} from '@/app/docs/guide';
import { searchOperations } from '@/app/docs/operation-search';
import { docsReference } from '@/app/docs/reference';
import { usedComponents } from '@/app/docs/schema-view';
import { createEventRoute } from '@/server/modules/catalog';
import { apiRequest, makePartner } from '@/server/testing/fixtures';
import { channelSaleResponse } from '@/server/modules/channels';

describe('partner-side examples in /docs', () => {
  it('the ticket verification answer is one Encore accepts', () => {
    expect(verificationAnswer.safeParse(verificationExample.answer).error?.issues ?? []).toEqual([]);
  });

  it('the event feed answer is one Encore accepts', () => {
    expect(feedEvent.safeParse(feedExample.answer).error?.issues ?? []).toEqual([]);
  });

  it('the webhook bodies are the messages Encore declares and sends', () => {
    for (const w of webhookExamples) {
      const { family, action, data } = w;
      expect(webhookMessage.safeParse({ family, action, data }).error?.issues ?? []).toEqual([]);
      expect(action.startsWith(`${family}.`)).toBe(true);
      // A channel's messages carry a sale as the Channels API answers it.
      if (family.startsWith('channel')) expect(channelSaleResponse.safeParse(data).error?.issues ?? []).toEqual([]);
    }
  });

  it('show every message Encore declares, once', () => {
    expect(webhookExamples.map((w) => w.action)).toEqual(webhookMessages().map((m) => m.action));
  });
});

describe('the Idempotency-Key example in /docs', () => {
  it('answers as the guide says: sent twice, the second is the first answer replayed', async () => {
    const { apiKey } = await makePartner('Docs idempotency');
    const curl = idempotencyCall('https://encore.example');
    const key = /-H 'Idempotency-Key: ([^']+)'/.exec(curl)![1];
    const send = () =>
      eventsPost(
        apiRequest('/v1/events', {
          key: apiKey,
          body: createEventRoute.examples!.body,
          headers: { 'idempotency-key': key },
        }),
      );
    const first = await send();
    const second = await send();
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(IDEMPOTENCY_REPLAY).toMatch(/^HTTP\/1.1 200 OK\nIdempotent-Replayed: true\n/);
    expect([second.status, second.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await second.text()).toBe(await first.text());
    // Without the key, the retry really runs: the event exists.
    const unkeyed = await eventsPost(apiRequest('/v1/events', { key: apiKey, body: createEventRoute.examples!.body }));
    expect(unkeyed.status).toBe(409);
  });
});

describe('the reference split into pages', () => {
  const { ops, groups, components } = docsReference();

  it('indexes every operation of the document once, under its tag, in the order the pages link them', () => {
    const indexed = groups.flatMap((g) => g.ops.map((o) => o.id));
    expect(indexed).toEqual(ops.map((o) => o.op.operationId));
    expect(new Set(indexed).size).toBe(indexed.length);
    for (const g of groups) expect(g.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(groups.find((g) => g.tag === 'Build your own buying flow')?.slug).toBe('build-your-own-buying-flow');
  });

  it('searches by every word, in the operationId, method, path, summary or tag, case aside', () => {
    const ids = (q: string) => searchOperations(groups, q).flatMap((g) => g.ops.map((o) => o.id));
    expect(ids('')).toHaveLength(ops.length);
    expect(ids('CREATEEVENT')).toEqual(['createEvent']);
    expect(ids('post /v1/events')).toContain('createEvent');
    expect(ids('post /v1/events')).not.toContain('updateEvent');
    expect(ids('market data inventory')).toEqual(['putInventory', 'putInventoryDetails']);
    expect(ids('channels')).toEqual(ops.filter((o) => o.tag === 'Channels').map((o) => o.op.operationId));
    expect(ids('no such operation')).toEqual([]);
  });

  it("hands a body's fields every named schema they reach, and only those", () => {
    const body = ops.find((o) => o.op.operationId === 'createEvent')!.op.requestBody!.content['application/json'];
    const used = usedComponents(body.schema, components);
    expect(Object.keys(used)).toContain('EventCreate');
    expect(Object.keys(used)).toContain('ShowInput');
    expect(Object.keys(used)).not.toContain('Event');
    const refs = JSON.stringify(used).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of refs) expect(used[ref.split('/').pop()!], ref).toBeDefined();
  });
});
