import { describe, expect, it } from 'vitest';
import { feedEvent } from '@/server/modules/catalog';
import { verificationAnswer } from '@/server/modules/partners';
import { webhookBody } from '@/server/modules/webhooks';
import { POST as eventsPost } from '@/app/v1/events/route';
import {
  IDEMPOTENCY_REPLAY,
  feedExample,
  idempotencyCall,
  verificationExample,
  webhookExamples,
} from '@/app/docs/guide';
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

  it('the webhook bodies have the shape Encore sends', () => {
    for (const w of webhookExamples) {
      const { family, action, data } = w;
      expect(webhookBody.safeParse({ family, action, data }).success).toBe(true);
      expect(action.startsWith(`${family}.`)).toBe(true);
      // A channel's messages carry a sale as the Channels API answers it.
      if (family.startsWith('channel')) expect(channelSaleResponse.safeParse(data).error?.issues ?? []).toEqual([]);
    }
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
