import { describe, expect, it } from 'vitest';
import {
  type BuyerPromiseFacts,
  deliveryText,
  guaranteeTexts,
  payoutDateText,
  payoutDueAt,
  supportContact,
} from './promises';

const NOW = new Date('2027-03-01T12:00:00Z');
const UNLOCK = new Date('2027-03-14T20:00:00Z'); // 17:00 in Buenos Aires

function facts(over: Partial<BuyerPromiseFacts> = {}): BuyerPromiseFacts {
  return {
    partnerName: 'Teatro Sur',
    reissue: false,
    codeFrom: UNLOCK,
    timeZone: 'America/Argentina/Buenos_Aires',
    verifiedLive: true,
    support: { url: null, email: null },
    encoreSupportEmail: 'support@encore.test',
    termsUrl: 'http://encore.test/terms?partner=ptr_1',
    ...over,
  };
}

describe('deliveryText: reissue or transfer, and when the code shows', () => {
  it('reissue on, before unlock: a new code in the buyer’s name, on the unlock date at the venue', () => {
    const en = deliveryText('en', facts({ reissue: true }), NOW);
    expect(en).toContain('Teatro Sur issues a new code in your name');
    expect(en).toContain('Sun, Mar 14, 2027, 5:00');
    const es = deliveryText('es', facts({ reissue: true }), NOW);
    expect(es).toContain('Teatro Sur emite un código nuevo a tu nombre');
    expect(es).toContain('14 mar 2027, 17:00');
  });

  it('reissue off, before unlock: transferred, no claim of a new code', () => {
    for (const locale of ['en', 'es'] as const) {
      const text = deliveryText(locale, facts({ reissue: false }), NOW);
      expect(text).not.toMatch(/new code|código nuevo|issued again|emite/i);
      expect(text).toMatch(locale === 'en' ? /transferred to your name/ : /pasa a tu nombre/);
      expect(text).toMatch(locale === 'en' ? /Mar 14, 2027/ : /14 mar 2027/);
    }
  });

  it('after unlock (or protection off: no unlock time) no date is promised', () => {
    const after = new Date(UNLOCK.getTime() + 1000);
    expect(deliveryText('en', facts(), after)).toBe(
      'The ticket is transferred to your name. Its code is on your ticket page as soon as your purchase completes.',
    );
    expect(deliveryText('en', facts({ codeFrom: null }), NOW)).toBe(deliveryText('en', facts(), after));
    expect(deliveryText('en', facts({ reissue: true }), after)).toContain('as soon as Teatro Sur sends it');
    expect(deliveryText('es', facts({ reissue: true, codeFrom: null }), NOW)).toContain(
      'en cuanto Teatro Sur lo envíe',
    );
  });
});

describe('guaranteeTexts', () => {
  it('states the refund and the live check; the new code only where the partner reissues', () => {
    const off = guaranteeTexts('en', facts({ reissue: false }), NOW);
    expect(off.title).toBe('What Encore guarantees');
    expect(off.items).toHaveLength(2);
    expect(off.items[0]).toContain('full refund, fees included, automatically');
    expect(off.items[1]).toContain('we ask Teatro Sur whether the seller still holds the ticket');
    expect(off.items.join(' ')).not.toMatch(/new code/);

    const on = guaranteeTexts('es', facts({ reissue: true }), NOW);
    expect(on.title).toBe('Lo que Encore garantiza');
    expect(on.items).toHaveLength(3);
    expect(on.items[2]).toBe('Teatro Sur te emite un código nuevo: el código del vendedor deja de funcionar.');
    expect(on.terms).toEqual({
      label: 'Condiciones de reventa de Encore',
      url: 'http://encore.test/terms?partner=ptr_1',
    });
  });

  it('a partner resale platform’s tickets: no ownership check is claimed, the hand-over refund is', () => {
    const channel = guaranteeTexts('en', facts({ sources: { fans: false, channels: true } }), NOW).items;
    expect(channel).toHaveLength(2);
    expect(channel[1]).toContain('once the platform hands them over; if it does not in time, you are refunded');
    expect(channel.join(' ')).not.toContain('still holds the ticket');
    const both = guaranteeTexts('es', facts({ sources: { fans: true, channels: true } }), NOW).items;
    expect(both).toHaveLength(3);
    expect(both[2]).toContain('plataforma de reventa asociada');
  });

  it('a partner without a verification endpoint: its records are checked, not "asked"', () => {
    const g = guaranteeTexts('en', facts({ verifiedLive: false }), NOW);
    expect(g.items[1]).toContain("we check Teatro Sur's records");
    expect(g.items[1]).not.toContain('we ask');
  });

  it('the partner’s support contact when set (page, e-mail or both); Encore’s e-mail when unset', () => {
    const none = guaranteeTexts('en', facts(), NOW).support;
    expect(none).toEqual({
      lead: 'Questions about your tickets? Encore can help:',
      url: null,
      email: { label: 'support@encore.test', href: 'mailto:support@encore.test' },
    });
    const both = guaranteeTexts(
      'en',
      facts({ support: { url: 'https://help.teatro.test/', email: 'help@teatro.test' } }),
      NOW,
    ).support;
    expect(both).toEqual({
      lead: 'Questions about your tickets? Teatro Sur can help:',
      url: { label: 'Teatro Sur help page', href: 'https://help.teatro.test/' },
      email: { label: 'help@teatro.test', href: 'mailto:help@teatro.test' },
    });
    expect(supportContact(facts({ support: { url: 'https://help.teatro.test/', email: null } }))).toEqual({
      by: 'partner',
      url: 'https://help.teatro.test/',
      email: null,
    });
  });
});

describe('payout date', () => {
  it('is the show start plus the partner’s delay, worded with the delay', () => {
    const show = new Date('2027-03-14T23:00:00Z');
    const due = payoutDueAt(show, 3);
    expect(due.toISOString()).toBe('2027-03-17T23:00:00.000Z');
    const tz = 'America/Argentina/Buenos_Aires';
    expect(payoutDateText('en', { dueAt: due, delayDays: 3, timeZone: tz })).toBe(
      'We pay you on Mar 17, 2027, 3 days after the show.',
    );
    expect(payoutDateText('es', { dueAt: due, delayDays: 1, timeZone: tz }, 'ifSold')).toBe(
      'Si se venden, te pagamos el 17 mar 2027, 1 día después del espectáculo.',
    );
    expect(payoutDateText('en', { dueAt: show, delayDays: 0, timeZone: tz }, 'ifSold')).toBe(
      'If they sell, we pay you on Mar 14, 2027, once the show has taken place.',
    );
  });
});
