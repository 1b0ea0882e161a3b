import { INTL_TAGS, type Locale, LOCALES } from '@/server/lib/i18n/locale-codes';
import { h, ORIGIN, WidgetElement } from './dom';
import WIDGET_WORDS from './words.json';

/*
 * `<encore-resale>`: the show's buy access layer drawn on a partner's page. Plain DOM in an open
 * shadow root, no framework, nothing evaluated from text, no markup written but the seat map Encore cleaned
 * when it was stored (svg.ts's allowlist) and parsed here as SVG. It reads the access layer with the
 * partner's publishable key (`pk_…`, safe in a page: it opens only these reads) at most every 30 s, shared
 * by every element showing the same show, and renders nothing, with one console warning, when the key is
 * refused or the show is off resale.
 */

/** How often the data may be read again: at most every 30 s. */
const REFRESH_MS = 30_000;

interface Link {
  text: string;
  url: string;
  enabled: boolean;
  colors?: { background?: string; text?: string };
}
interface Seat {
  section?: string;
  row?: string;
  seat?: string;
}
interface Component {
  type: string;
  class: string;
  button?: Link;
  banner?: { title: string; description: string; visible: boolean; colors?: Link['colors']; callToAction: Link };
  list?: { items: { quantity: number; price: number; currency: string; seats: Seat[]; url: string }[] };
  map?: {
    visible: boolean;
    image: string | null;
    svg: string | null;
    url: string;
    sections: { sectionId: string; label: string; available: number; url: string }[];
  };
}
interface Layer {
  market: { listings: number; resaleEnabled: boolean };
  url: string;
  components: Component[];
}

type Answer = { layer: Layer } | { refused: string };

interface Words {
  section: string;
  row: string;
  seat: string;
  tickets: (n: number) => string;
  all: string;
  close: string;
  map: string;
  page: string;
  newTab: string;
}

/** `1 ticket`, `3 tickets`: the count in the language's own digits, the noun by its CLDR plural rule. */
function count(tag: string, one: string, other: string): (n: number) => string {
  const rules = new Intl.PluralRules(tag);
  return (n) => `${n.toLocaleString(tag)} ${rules.select(n) === 'one' ? one : other}`;
}

type Lang = Locale;

/** Each language's words (./words.json); the count of tickets by the language's plural rule. */
const WORDS = Object.fromEntries(
  LOCALES.map((lang) => {
    const { ticket, tickets, ...rest } = WIDGET_WORDS.resale[lang];
    return [lang, { ...rest, tickets: count(INTL_TAGS[lang], ticket, tickets) }];
  }),
) as Record<Lang, Words>;

/** One read per show, key and language every 30 s, however many elements show it. */
const reads = new Map<string, { at: number; answer: Promise<Answer> }>();

function read(key: string, event: string, show: string, lang: Lang): Promise<Answer> {
  const query = new URLSearchParams({ type: 'buy', eventId: event, showId: show, lang });
  const address = `${ORIGIN}/v1/wrapper/accesslayer?${query}`;
  const cached = reads.get(`${key} ${address}`);
  if (cached && Date.now() - cached.at < REFRESH_MS) return cached.answer;
  const answer = fetch(address, { headers: { authorization: `Bearer ${key}` }, credentials: 'omit' })
    .then(async (res): Promise<Answer> => {
      const body = (await res.json().catch(() => null)) as { data?: Layer; errors?: { message?: string } } | null;
      if (res.ok && body?.data) return { layer: body.data };
      return { refused: `${res.status} ${body?.errors?.message ?? res.statusText}` };
    })
    .catch((err: unknown) => ({ refused: String(err) }));
  reads.set(`${key} ${address}`, { at: Date.now(), answer });
  return answer;
}

const sectionKey = (name: string) => name.trim().toLowerCase();

export class EncoreResale extends WidgetElement {
  static observedAttributes = ['publishable-key', 'event', 'show', 'lang', 'layout', 'mode'];
  private timer: ReturnType<typeof setInterval> | undefined;
  private drawn = '';

  constructor() {
    super('encore-resale');
  }

  connectedCallback() {
    void this.refresh();
    this.timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void this.refresh();
    }, REFRESH_MS);
  }

  disconnectedCallback() {
    clearInterval(this.timer);
  }

  protected override off(reason: string) {
    super.off(reason);
    this.drawn = '';
  }

  protected async refresh() {
    const key = this.getAttribute('publishable-key') ?? '';
    const event = this.getAttribute('event') ?? '';
    const show = this.getAttribute('show') ?? '';
    if (!/^pk_(live|test)_/.test(key))
      return this.off('publishable-key must be a publishable key (pk_live_… or pk_test_…)');
    if (!event || !show) return this.off('event and show are required');
    const lang = this.language;
    const answer = await read(key, event, show, lang);
    if ('refused' in answer) return this.off(`Encore refused the request (${answer.refused})`);
    const { layer } = answer;
    const button = layer.components.find((c) => c.type === 'button')?.button;
    if (!layer.market.resaleEnabled || !button?.enabled) return this.off('the show is off resale');
    const layout = this.getAttribute('layout') ?? 'button';
    // The same answer draws the same thing: a refresh that changed nothing leaves focus and the DOM alone.
    const signature = JSON.stringify([layout, this.getAttribute('mode'), lang, layer]);
    if (signature === this.drawn) return;
    this.drawn = signature;
    this.hidden = false;
    const part =
      layout === 'banner'
        ? this.banner(layer)
        : layout === 'list'
          ? this.list(layer, lang)
          : layout === 'map'
            ? this.map(layer, lang)
            : null;
    this.root.replaceChildren(part ?? this.link(button.text, button.url, lang, 'btn'));
  }

  /** A link to the buy page: a new tab, or the in-page dialog with `mode="dialog"`. */
  private link(text: string, url: string, lang: Lang, className: string): HTMLAnchorElement {
    const dialog = this.getAttribute('mode') === 'dialog';
    const a = h('a', { class: className, href: url }, text);
    if (dialog) {
      a.addEventListener('click', (e) => {
        e.preventDefault();
        this.open(url, lang);
      });
    } else {
      a.target = '_blank';
      a.rel = 'noopener';
      a.setAttribute('aria-label', `${text} ${WORDS[lang].newTab}`);
    }
    return a;
  }

  private open(url: string, lang: Lang) {
    const close = h('button', { class: 'btn', type: 'button' }, WORDS[lang].close);
    const dialog = h(
      'dialog',
      { 'aria-label': WORDS[lang].page },
      h('div', { class: 'bar' }, close),
      h('iframe', { src: url, title: WORDS[lang].page }),
    );
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    this.root.append(dialog);
    dialog.showModal();
  }

  private banner(layer: Layer): HTMLElement | null {
    const banner = layer.components.find((c) => c.type === 'banner' && c.banner?.visible)?.banner;
    if (!banner) return null;
    // Staff's colours (checked to be #rrggbb when written) through the CSS object model, not a style attribute.
    this.style.setProperty('--encore-banner-bg', banner.colors?.background ?? null);
    this.style.setProperty('--encore-banner-text', banner.colors?.text ?? null);
    const cta = banner.callToAction;
    return h(
      'section',
      { class: 'banner' },
      h('h2', {}, banner.title),
      h('p', {}, banner.description),
      this.link(cta.text, cta.url, this.language, 'btn'),
    );
  }

  private list(layer: Layer, lang: Lang): HTMLElement | null {
    const items = layer.components.find((c) => c.type === 'list')?.list?.items ?? [];
    if (!items.length) return null;
    const words = WORDS[lang];
    const rows = items.map((item) => {
      const seat = item.seats[0];
      const where = seat
        ? [
            seat.section && `${words.section} ${seat.section}`,
            seat.row && `${words.row} ${seat.row}`,
            seat.seat && `${words.seat} ${seat.seat}`,
          ]
            .filter(Boolean)
            .join(' · ')
        : '';
      const price = new Intl.NumberFormat(INTL_TAGS[lang], { style: 'currency', currency: item.currency }).format(
        item.price,
      );
      const text = [where, words.tickets(item.quantity)].filter(Boolean).join(' · ');
      return h(
        'li',
        { class: 'offer' },
        h('span', { class: 'what' }, text),
        this.link(price, item.url, lang, 'price link'),
      );
    });
    return h('div', {}, h('ul', {}, ...rows), this.link(words.all, layer.url, lang, 'more link'));
  }

  private map(layer: Layer, lang: Lang): HTMLElement | null {
    const map = layer.components.find((c) => c.type === 'map')?.map;
    if (!map?.visible) return null;
    const box = h('figure', { class: 'map', 'aria-label': WORDS[lang].map });
    const onSale = map.sections.filter((s) => s.available > 0);
    const svg = map.svg ? new DOMParser().parseFromString(map.svg, 'image/svg+xml').documentElement : null;
    const drawn = new Set<string>();
    if (svg && svg.localName === 'svg') {
      // Each section on sale becomes a link drawn around its shape (`data-section`, or an id a ticket names).
      for (const section of map.sections) {
        const key = sectionKey(section.sectionId);
        const shape = [...svg.querySelectorAll('[data-section],[id]')].find(
          (el) => sectionKey(el.getAttribute('data-section') || el.id) === key,
        );
        if (!shape) continue;
        drawn.add(key);
        const name =
          section.available > 0 ? `${section.label}, ${WORDS[lang].tickets(section.available)}` : section.label;
        if (section.available > 0) {
          const a = document.createElementNS('http://www.w3.org/2000/svg', 'a');
          a.setAttribute('href', section.url);
          a.setAttribute('aria-label', name);
          if (this.getAttribute('mode') !== 'dialog') a.setAttribute('target', '_blank');
          a.addEventListener('click', (e) => {
            if (this.getAttribute('mode') !== 'dialog') return;
            e.preventDefault();
            this.open(section.url, lang);
          });
          a.addEventListener('keydown', (e) => {
            if (e.key !== ' ') return;
            e.preventDefault();
            a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
          });
          shape.replaceWith(a);
          a.append(shape);
        } else {
          shape.setAttribute('class', 'off');
          shape.setAttribute('role', 'img');
          shape.setAttribute('aria-label', name);
        }
      }
      svg.setAttribute('role', 'group');
      box.append(document.importNode(svg, true));
    } else if (map.image) {
      box.append(h('img', { src: map.image, alt: WORDS[lang].map }));
    } else {
      return null;
    }
    const listed = onSale.filter((s) => !drawn.has(sectionKey(s.sectionId)));
    if (listed.length)
      box.append(
        h(
          'nav',
          { class: 'sections', 'aria-label': WORDS[lang].map },
          ...listed.map((s) => this.link(`${s.label}, ${WORDS[lang].tickets(s.available)}`, s.url, lang, 'link')),
        ),
      );
    return box;
  }
}
