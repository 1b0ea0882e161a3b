import { INTL_TAGS, type Locale } from '@/server/lib/i18n/locale-codes';
import { h, ORIGIN, WidgetElement } from './dom';
import WIDGET_WORDS from './words.json';

/*
 * `<encore-sell publishable-key="pk_…" token="ott_…" lang="es">`: the fan's resale entry drawn on a partner's
 * page: their tickets by show, each one's status, why it cannot be sold, and its links
 * (sell, manage the listing) opening Encore in a new tab with the fan signed in. `token` is a one-time token
 * the partner's server minted for the fan (`GET /v1/auth/oneTimeToken`); Encore reads it without spending
 * it. `publishable-key` names the partner and passes CORS, as for `<encore-resale>`. Read once when connected
 * (and again when an attribute changes): each read mints the links' sign-in tokens. A refused key or token:
 * nothing drawn, one console warning.
 */

interface Cta {
  key: string;
  text: string;
  url: string;
  enabled: boolean;
}
interface Ticket {
  ticketId: string;
  option: string;
  seat: { section?: string; row?: string; seat?: string } | null;
  status: 'SELLABLE' | 'NOT_SELLABLE' | 'FOR_SALE' | 'SOLD';
  callToActions: Cta[];
  reasons: { code: string; text: string }[];
}
interface Show {
  eventTitle: string;
  showTitle: string;
  startsAt: string;
  timeZone: string | null;
  tickets: Ticket[];
}
interface Words {
  title: string;
  empty: string;
  unavailable: string;
  status: Record<'SELLABLE' | 'FOR_SALE' | 'SOLD' | 'NOT_SELLABLE', string>;
  seat: [string, string, string];
  newTab: string;
}
interface Entry {
  unavailable: boolean;
  url: string;
  shows: Show[];
}

type Lang = Locale;

/** Each language's words (./words.json). */
const WORDS = WIDGET_WORDS.sell as Record<Lang, Words>;

export class EncoreSell extends WidgetElement {
  static observedAttributes = ['publishable-key', 'token', 'lang'];
  private asked = '';

  constructor() {
    super('encore-sell');
  }

  connectedCallback() {
    void this.refresh();
  }

  protected async refresh() {
    const key = this.getAttribute('publishable-key') ?? '';
    const token = this.getAttribute('token') ?? '';
    if (!/^pk_(live|test)_/.test(key))
      return this.off('publishable-key must be a publishable key (pk_live_… or pk_test_…)');
    if (!token.startsWith('ott_')) return this.off('token must be a one-time token (ott_…) minted by your server');
    const lang = this.language;
    const query = new URLSearchParams({ token, autologin: 'true', lang });
    // One read per key, token and language: every read mints the links' tokens.
    if (query.toString() + key === this.asked) return;
    this.asked = query.toString() + key;
    let answer: { entry: Entry } | { refused: string };
    try {
      const res = await fetch(`${ORIGIN}/v1/wrapper/accesslayer/resale-entry?${query}`, {
        headers: { authorization: `Bearer ${key}` },
        credentials: 'omit',
      });
      const body = (await res.json().catch(() => null)) as { data?: Entry; errors?: { message?: string } } | null;
      answer =
        res.ok && body?.data
          ? { entry: body.data }
          : { refused: `${res.status} ${body?.errors?.message ?? res.statusText}` };
    } catch (err) {
      answer = { refused: String(err) };
    }
    if (this.asked !== query.toString() + key) return; // an attribute changed meanwhile: that read draws
    if ('refused' in answer) return this.off(`Encore refused the request (${answer.refused})`);
    this.hidden = false;
    this.root.replaceChildren(this.draw(answer.entry, lang));
  }

  private link(cta: Cta, lang: Lang, className: string): HTMLAnchorElement {
    const a = h('a', { class: className, href: cta.url, target: '_blank', rel: 'noopener' }, cta.text);
    a.setAttribute('aria-label', `${cta.text} ${WORDS[lang].newTab}`);
    return a;
  }

  private draw(entry: Entry, lang: Lang): HTMLElement {
    const words = WORDS[lang];
    const box = h('section', { class: 'entry', 'aria-label': words.title });
    if (entry.unavailable) {
      box.append(h('p', { role: 'status' }, words.unavailable));
      return box;
    }
    if (!entry.shows.length) box.append(h('p', { class: 'empty' }, words.empty));
    for (const show of entry.shows) {
      const date = new Intl.DateTimeFormat(INTL_TAGS[lang], {
        dateStyle: 'medium',
        timeStyle: 'short',
        ...(show.timeZone ? { timeZone: show.timeZone } : {}),
      }).format(new Date(show.startsAt));
      const sub = show.showTitle && show.showTitle !== show.eventTitle ? `${show.showTitle} · ${date}` : date;
      const rows = show.tickets.map((t) => {
        const seat = t.seat
          ? [t.seat.section, t.seat.row, t.seat.seat]
              .map((v, i) => (v ? `${words.seat[i]} ${v}` : ''))
              .filter(Boolean)
              .join(' · ')
          : '';
        const links = t.callToActions.filter((c) => c.enabled).map((c) => this.link(c, lang, 'btn'));
        return h(
          'li',
          { class: 'ticket', 'data-ticket': t.ticketId, 'data-status': t.status },
          h(
            'div',
            { class: 'what' },
            h('span', { class: 'name' }, seat ? `${t.option} · ${seat}` : t.option),
            h('span', { class: 'badge' }, words.status[t.status]),
            ...t.reasons.map((r) => h('span', { class: 'why' }, r.text)),
          ),
          ...links,
        );
      });
      box.append(h('h3', {}, show.eventTitle), h('p', { class: 'when' }, sub), h('ul', {}, ...rows));
    }
    box.append(this.link({ key: 'MANAGE', text: words.title, url: entry.url, enabled: true }, lang, 'more link'));
    return box;
  }
}
