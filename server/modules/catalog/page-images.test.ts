import { describe, expect, it } from 'vitest';
import { getDb, getSql } from '@/db';
import { makePartner, pushEvent, testShow } from '@/server/testing/fixtures';
import { eventPageInfo, eventSeating } from './index';

describe('a partner’s images as fan pages load them', () => {
  it('keeps https, upgrades http to https, and drops any other scheme; the API answers them as sent', async () => {
    const { partner, apiKey } = await makePartner('Page images');
    const ref = `img-${partner.id}`;
    await pushEvent(apiKey, ref, [
      testShow('1', {
        images: [
          { url: 'javascript:alert(1)', kind: 'main' },
          { url: 'http://img.partner.example/poster.jpg?w=640', kind: 'secondary' },
          { url: 'https://img.partner.example/hero.jpg', kind: 'main' },
        ],
      }),
    ]);
    const [{ id: eventPk }] = await getSql()<{ id: string }[]>`select id from events where partner_id = ${partner.id}`;
    await getSql()`update events set seating = '{"image": "http://img.partner.example/plan.png"}'::jsonb
      where id = ${eventPk}`;

    const page = await eventPageInfo(eventPk, getDb());
    expect(page?.shows[0].images).toEqual([
      'https://img.partner.example/hero.jpg',
      'https://img.partner.example/poster.jpg?w=640',
    ]);
    expect((await eventSeating(eventPk, getDb()))?.image).toBe('https://img.partner.example/plan.png');
    // What the partner sent is stored as sent.
    const [stored] = await getSql()<
      { images: { url: string }[] }[]
    >`select images from shows where event_id = ${eventPk}`;
    expect(stored.images.map((i) => i.url)).toContain('http://img.partner.example/poster.jpg?w=640');
  });
});
