/*
 * The reference edge's own code, for what nginx's maps cannot do: edge/nginx.conf loads it into nginx's njs
 * module (Debian's libnginx-mod-http-js, njs 0.7.9). Each function runs synchronously, once per request that
 * needs it:
 *   - fanLang (`js_set $fan_lang`): the buy page's `lang=` exactly as Encore chooses it (pageLang,
 *     server/http/shared-page-address.ts, on chosenLocale, server/lib/i18n/locales.ts): the address's first
 *     `lang`, then the last `encore_lang` cookie, then Accept-Language weighed by its q-values (ties in header
 *     order), else `auto` (EVENT_LANG): "the event's own language", which only the origin knows (the primary
 *     language of the event's country, else DEFAULT_LANG) and which is the same for every such fan of that page;
 *   - pageQuery (`js_set $page_query`): the buy page's canonical query, `lang=` then the parameters the page
 *     reads, each normalised the way the page reads it (the cache key, and exactly what the origin is asked);
 *   - outagePage (`js_content`): Encore's branded 503 (outageDocument, server/http/page-guard.ts) in the fan's
 *     language, for when nginx itself cannot reach the origin.
 * server/testing/edge.test.ts runs the same cases through these (inside nginx) and through the origin's code.
 */

/**
 * The outage page's words (server/lib/i18n/messages/<lang>.json, `requestError.unavailable`), by language.
 * Its keys are the languages the edge knows: to add one, add its words here when LOCALES
 * (server/lib/i18n/locale-codes.ts) gains it (the tests check the two lists are the same).
 */
const OUTAGE_COPY = {
  en: {
    title: 'Encore is unavailable for a moment',
    body: 'We could not load this page just now. Nothing you did was lost: try again in a few seconds.',
    retry: 'Try again',
  },
  es: {
    title: 'Encore no está disponible por un momento',
    body: 'No hemos podido cargar esta página ahora mismo. No se ha perdido nada de lo que hiciste: vuelve a intentarlo en unos segundos.',
    retry: 'Volver a intentarlo',
  },
  fr: {
    title: 'Encore est momentanément indisponible',
    body: 'Impossible de charger cette page pour le moment. Rien de ce que vous avez fait n’est perdu : réessayez dans quelques secondes.',
    retry: 'Réessayer',
  },
  de: {
    title: 'Encore ist kurz nicht erreichbar',
    body: 'Diese Seite konnte gerade nicht geladen werden. Nichts von dem, was Sie getan haben, ist verloren: Versuchen Sie es in ein paar Sekunden erneut.',
    retry: 'Erneut versuchen',
  },
  it: {
    title: 'Encore non è disponibile per un momento',
    body: 'Non siamo riusciti a caricare questa pagina. Niente di ciò che hai fatto è andato perso: riprova tra qualche secondo.',
    retry: 'Riprova',
  },
  pt: {
    title: 'A Encore está indisponível por um momento',
    body: 'Não foi possível carregar esta página agora. Nada do que fez se perdeu: tente novamente dentro de alguns segundos.',
    retry: 'Tentar novamente',
  },
  nl: {
    title: 'Encore is even niet bereikbaar',
    body: 'We konden deze pagina nu niet laden. Niets van wat je deed is verloren gegaan: probeer het over een paar seconden opnieuw.',
    retry: 'Opnieuw proberen',
  },
};
const LANGS = Object.keys(OUTAGE_COPY);
/** Encore's DEFAULT_LANG (server/env.ts, `en` unless set): keep it equal to the origin's. */
const DEFAULT_LANG = 'en';
/** The buy page's `lang=` when nothing of the fan's chose one (EVENT_LANG, server/http/shared-page-address.ts). */
const EVENT_LANG = 'auto';
/** The cookie remembering a fan's language (LOCALE_COOKIE, server/lib/i18n/locale-codes.ts). */
const LOCALE_COOKIE = 'encore_lang';
/** Accept-Language entries weighed, as the origin does (localeFromAcceptLanguage). */
const MAX_ACCEPT_LANGUAGE_ENTRIES = 20;

/** `es-AR`, `ES`, `es_419`, ` es` → `es`; anything unsupported → null (supportedLocale, locale-codes.ts). */
function supportedLocale(tag) {
  if (!tag) return null;
  const base = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  return LANGS.indexOf(base) >= 0 ? base : null;
}

/** The best supported language of an Accept-Language header by its q-values, ties in header order. */
function localeFromAcceptLanguage(header) {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, MAX_ACCEPT_LANGUAGE_ENTRIES)
    .map((part, index) => {
      const params = part.trim().split(';');
      const q = params
        .slice(1)
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: params[0], weight: Number.isFinite(weight) ? weight : 0, index: index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (let i = 0; i < ranked.length; i++) {
    const found = supportedLocale(ranked[i].tag);
    if (found) return found;
  }
  return null;
}

/**
 * One name or value of an application/x-www-form-urlencoded query, decoded as URLSearchParams does: `+` is a
 * space, `%XX` a byte, a `%` without two hex digits itself, and bytes that are not UTF-8 U+FFFD.
 */
function formDecode(text) {
  const plus = text.replace(/\+/g, ' ');
  if (plus.indexOf('%') < 0) return plus;
  const bytes = [];
  plus.split(/(%[0-9A-Fa-f]{2})/).forEach((piece, i) => {
    // The split keeps each %XX at the odd places.
    if (i % 2) bytes.push(parseInt(piece.slice(1), 16));
    else if (piece) new TextEncoder().encode(piece).forEach((byte) => bytes.push(byte));
  });
  return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
}

/** A name or value written as URLSearchParams writes it (`URLSearchParams#toString`). */
function formEncode(text) {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/** The query's parameters, decoded, in order: `[name, value]` each (`a` alone is `['a', '']`). */
function queryPairs(args) {
  return String(args || '')
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, at)), formDecode(part.slice(at + 1))];
    });
}

/** A request header's values joined as Node.js joins them for Encore's server (`separator`), or null. */
function headerValues(r, name, separator) {
  const values = r.rawHeadersIn.filter((h) => h[0].toLowerCase() === name).map((h) => h[1]);
  return values.length ? values.join(separator) : null;
}

/** The value of the last `encore_lang` cookie, as sent (not decoded), or null (requestLocale). */
function rememberedLang(cookieHeader) {
  const remembered = String(cookieHeader || '')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c.startsWith(LOCALE_COOKIE + '='));
  return remembered.length ? remembered[remembered.length - 1].slice(LOCALE_COOKIE.length + 1) : null;
}

/** The language the fan chose for this request, exactly as Encore's server reads it, or null. */
function fanChoice(r) {
  const lang = queryPairs(r.variables.args).find((pair) => pair[0] === 'lang');
  return (
    supportedLocale(lang ? lang[1] : null) ||
    supportedLocale(rememberedLang(headerValues(r, 'cookie', '; '))) ||
    localeFromAcceptLanguage(headerValues(r, 'accept-language', ', '))
  );
}

/** The buy page's `lang=` (`$fan_lang`): the fan's choice, else EVENT_LANG, exactly as Encore's pageLang. */
function fanLang(r) {
  return fanChoice(r) || EVENT_LANG;
}

/** A value the page reads as it is. */
function asIs(value) {
  return value;
}

/**
 * `qty` and `page`: the page reads `Number(value)` and keeps it only when it is an integer of at least 1
 * (buyPageModel, server/modules/fan-pages/buy-page-model.ts); anything else is as if it were absent. So
 * `011`, `11.0`, `+11` (a space, then 11) and `1.1e1` are all `11`, and `0`, `-1`, `1.5`, `abc` are dropped.
 */
function positiveInteger(value) {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? String(n) : null;
}

/** `sort`: the page knows `price_desc` and `price_asc` (the default); anything else is as if absent. */
function knownSort(value) {
  return value === 'price_desc' || value === 'price_asc' ? value : null;
}

/**
 * The query parameters the buy page reads, in the canonical order (BUY_PAGE_PARAMS,
 * server/http/shared-page-address.ts; a test checks the two lists are the same), each with how it reads the value.
 */
const PAGE_PARAMS = [
  ['show', asIs],
  ['ticket', asIs],
  ['ticketOptionId', asIs],
  ['zone', asIs],
  ['section', asIs],
  ['qty', positiveInteger],
  ['sort', knownSort],
  ['page', positiveInteger],
  ['returnTo', asIs],
  ['returnURL', asIs],
];

/**
 * The buy page's canonical query (`$page_query`): `lang=<the fan's language>`, then each parameter the page
 * reads, in a fixed order: its first non-empty value (names as written: `SHOW` is not `show`), normalised
 * as the page reads it, left out when absent, empty or a value the page ignores; written as URLSearchParams
 * writes it. Nothing else of the client's query (utm_*, fbclid, gclid, anything unknown) is in it.
 */
function pageQuery(r) {
  const pairs = queryPairs(r.variables.args);
  const query = ['lang=' + fanLang(r)];
  PAGE_PARAMS.forEach((param) => {
    const given = pairs.find((pair) => pair[0] === param[0] && pair[1] !== '');
    const value = given ? param[1](given[1]) : null;
    if (value !== null) query.push(formEncode(param[0]) + '=' + formEncode(value));
  });
  return query.join('&');
}

/** Text made safe inside HTML, in an element or a quoted attribute (escapeHtml, server/lib/escape-html.ts). */
function escapeHtml(text) {
  const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (c) => entities[c]);
}

/** Encore's branded outage document (outageDocument, server/http/page-guard.ts): the way on is the same address. */
function outageDocument(lang, path) {
  const m = OUTAGE_COPY[lang];
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(m.title)} · Encore</title><link rel="icon" href="/icon.svg">
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#14171f;background:#f4f6f9}
main{max-width:32rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #dfe3ea;border-radius:12px}
header{display:flex;align-items:center;gap:.5rem;font-weight:600;margin-bottom:1.5rem}
h1{font-size:1.5rem;line-height:1.2;margin:0 0 .75rem}p{color:#545c6b}
a.btn{display:inline-block;margin-top:1rem;padding:.6rem 1rem;border-radius:8px;background:#0a58d6;color:#fff;text-decoration:none}</style>
</head><body><main data-testid="request-error" data-status="503">
<header><img src="/icon.svg" alt="" width="28" height="28"> Encore</header>
<h1>${escapeHtml(m.title)}</h1><p>${escapeHtml(m.body)}</p>
<a class="btn" href="${escapeHtml(path)}">${escapeHtml(m.retry)}</a></main></body></html>`;
}

/**
 * The branded 503 (`js_content`, the edge's `@outage`): in the fan's language, its link the address the fan
 * asked for. The headers (Retry-After, the security headers) are the location's.
 */
function outagePage(r) {
  r.headersOut['Content-Type'] = 'text/html; charset=utf-8';
  // Without its origin the edge cannot know an event's language: the fan's choice, else DEFAULT_LANG
  // (requestLocale, server/http/shared-page-address.ts, which the origin's own outage page uses).
  r.return(503, outageDocument(fanChoice(r) || DEFAULT_LANG, r.variables.request_uri));
}

const edge = { fanLang, pageQuery, outagePage };

export default edge;
