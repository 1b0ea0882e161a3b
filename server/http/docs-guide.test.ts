import { describe, expect, it } from 'vitest';
import { feedEvent } from '@/server/modules/catalog';
import { verificationAnswer } from '@/server/modules/partners';
import { webhookBody } from '@/server/modules/webhooks';
import { feedExample, verificationExample, webhookExamples } from '@/app/docs/guide';
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
