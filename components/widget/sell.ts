import { INTL_TAGS, type Locale } from '@/server/lib/i18n/locale-codes';
import { h, ORIGIN, WidgetElement } from './dom';

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

const WORDS: Record<Lang, Words> = {
  en: {
    title: 'My tickets',
    empty: 'You have no tickets to sell.',
    unavailable: 'Your tickets could not be loaded just now. Please try again in a moment.',
    status: { SELLABLE: 'Can be sold', FOR_SALE: 'On sale', SOLD: 'Sold', NOT_SELLABLE: "Can't be sold" },
    seat: ['Section', 'Row', 'Seat'],
    newTab: '(opens in a new tab)',
  },
  es: {
    title: 'Mis entradas',
    empty: 'No tienes entradas para vender.',
    unavailable: 'No pudimos cargar tus entradas ahora. Vuelve a intentarlo en un momento.',
    status: { SELLABLE: 'Se puede vender', FOR_SALE: 'En venta', SOLD: 'Vendida', NOT_SELLABLE: 'No se puede vender' },
    seat: ['Sector', 'Fila', 'Asiento'],
    newTab: '(se abre en una pestaña nueva)',
  },
  fr: {
    title: 'Mes billets',
    empty: 'Vous n’avez aucun billet à vendre.',
    unavailable: 'Impossible de charger vos billets pour le moment. Réessayez dans un instant.',
    status: {
      SELLABLE: 'Peut être vendu',
      FOR_SALE: 'En vente',
      SOLD: 'Vendu',
      NOT_SELLABLE: 'Ne peut pas être vendu',
    },
    seat: ['Zone', 'Rang', 'Place'],
    newTab: '(s’ouvre dans un nouvel onglet)',
  },
  de: {
    title: 'Meine Tickets',
    empty: 'Sie haben keine Tickets zum Verkaufen.',
    unavailable: 'Ihre Tickets konnten gerade nicht geladen werden. Bitte versuchen Sie es gleich noch einmal.',
    status: { SELLABLE: 'Verkaufbar', FOR_SALE: 'Im Verkauf', SOLD: 'Verkauft', NOT_SELLABLE: 'Nicht verkaufbar' },
    seat: ['Bereich', 'Reihe', 'Platz'],
    newTab: '(öffnet in einem neuen Tab)',
  },
  it: {
    title: 'I miei biglietti',
    empty: 'Non hai biglietti da vendere.',
    unavailable: 'Non siamo riusciti a caricare i tuoi biglietti. Riprova tra un momento.',
    status: { SELLABLE: 'Vendibile', FOR_SALE: 'In vendita', SOLD: 'Venduto', NOT_SELLABLE: 'Non vendibile' },
    seat: ['Settore', 'Fila', 'Posto'],
    newTab: '(si apre in una nuova scheda)',
  },
  pt: {
    title: 'Os meus bilhetes',
    empty: 'Não tem bilhetes para vender.',
    unavailable: 'Não foi possível carregar os seus bilhetes. Tente novamente daqui a pouco.',
    status: {
      SELLABLE: 'Pode ser vendido',
      FOR_SALE: 'À venda',
      SOLD: 'Vendido',
      NOT_SELLABLE: 'Não pode ser vendido',
    },
    seat: ['Setor', 'Fila', 'Lugar'],
    newTab: '(abre num novo separador)',
  },
  nl: {
    title: 'Mijn tickets',
    empty: 'Je hebt geen tickets om te verkopen.',
    unavailable: 'We konden je tickets nu niet laden. Probeer het zo nog eens.',
    status: {
      SELLABLE: 'Kan verkocht worden',
      FOR_SALE: 'Te koop',
      SOLD: 'Verkocht',
      NOT_SELLABLE: 'Kan niet verkocht worden',
    },
    seat: ['Vak', 'Rij', 'Stoel'],
    newTab: '(opent in een nieuw tabblad)',
  },
};

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
