import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from './escape-html';

/*
 * Partner seat maps (`seating.svgCode`) made harmless when they are written, so what is stored, echoed
 * to the partner and later drawn inline on fans' and staff pages can neither run script nor fetch
 * anything. An allowlist: shapes, text, groups, gradients and clipping stay; anything that runs,
 * loads, embeds, animates or styles with CSS goes (docs/security.md, docs/decisions.md).
 */

/** Largest seat map accepted, in UTF-8 bytes: a detailed arena map is a few hundred kB. */
export const SVG_MAX_BYTES = 1_000_000;

/** What a seat map is drawn with. Case matters in SVG (`linearGradient`, `viewBox`): names are kept as sent. */
const ALLOWED_TAGS = [
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
];

/**
 * Elements dropped with everything inside them, not just unwrapped: their content is code, CSS, HTML
 * or editor metadata, never part of the drawing. Matched without regard to case (see `canonicalName`).
 */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'foreignObject',
  'iframe',
  'noscript',
  'template',
  'textarea',
  'xmp',
  'metadata',
];

/**
 * Attributes the browser reads as CSS values. Only these may hold `url(…)` (a local `url(#id)`) or a
 * function (colours, transforms); anything else there is dropped.
 */
const CSS_VALUED = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'visibility',
  'display',
  'stop-color',
  'stop-opacity',
  'transform',
  'gradientTransform',
];

/** Attributes any allowed element may carry: geometry, presentation, accessibility and the map's own data. */
const ANY_ELEMENT_ATTRIBUTES = [
  'id',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'dx',
  'dy',
  'fx',
  'fy',
  'd',
  'points',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'offset',
  'gradientUnits',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'role',
  'aria-label',
  'aria-hidden',
  'data-section',
  'data-label',
  'data-row',
  'data-seat',
  ...CSS_VALUED,
];

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  '*': ANY_ELEMENT_ATTRIBUTES,
  // `class` everywhere but on `<svg>`: drawn inline, a root with the page's own utility classes
  // (`fixed inset-0 z-50`) could cover the page. Inside an SVG, CSS positioning does not apply.
  ...Object.fromEntries(ALLOWED_TAGS.filter((tag) => tag !== 'svg').map((tag) => [tag, ['class']])),
  svg: ['xmlns'],
  // Local references only (checked in `keepAttribute`): a symbol, a gradient to inherit from.
  use: ['class', 'href'],
  linearGradient: ['class', 'href'],
  radialGradient: ['class', 'href'],
};

/** Functions a CSS-valued attribute may call: colours and transforms. `url(#id)` is checked apart. */
const CSS_FUNCTIONS = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'matrix',
  'translate',
  'scale',
  'rotate',
  'skewx',
  'skewy',
]);

/**
 * A function name and its bracket. The look-behind starts a match only where a name starts, so a long
 * value costs one pass, never one per character. A bare `(` matches with an empty name.
 */
const CSS_CALL = /(?<![a-z-])([a-z-]*)\(/gi;
/** What follows `url(` when it points inside the document. */
const LOCAL_REFERENCE = /\s*["']?#/y;

/**
 * The one spelling `DROPPED_WITH_CONTENT` knows for a name sent in any case (`<SCRIPT>`, `<ForeignObject>`),
 * so its content goes too; other names are kept as sent and meet the case-sensitive allowlist.
 */
const canonicalName = (() => {
  const byLowerCase = new Map(DROPPED_WITH_CONTENT.map((name) => [name.toLowerCase(), name]));
  return (name: string) => byLowerCase.get(name.toLowerCase()) ?? name;
})();

/** Every `url(` reference points inside the document, and every other function is a colour or a transform. */
function isSafeCssValue(value: string): boolean {
  // A CSS escape can spell `url(` (`\75 rl(`) past any pattern: no seat map needs one.
  if (value.includes('\\')) return false;
  for (const match of value.matchAll(CSS_CALL)) {
    const name = match[1].toLowerCase();
    if (name === 'url') {
      LOCAL_REFERENCE.lastIndex = (match.index ?? 0) + match[0].length;
      if (!LOCAL_REFERENCE.test(value)) return false;
    } else if (!CSS_FUNCTIONS.has(name)) {
      return false;
    }
  }
  return true;
}

/** Values checked beyond the allowlist of names: links stay inside the document, CSS values stay inert. */
function keepAttribute(name: string, value: string): boolean {
  // Empty, none of these attributes says anything; dropped, the output stays well-formed XML (no bare names).
  if (value === '') return false;
  if (name === 'href') return value.startsWith('#');
  if (name === 'xmlns') return value === 'http://www.w3.org/2000/svg';
  if (CSS_VALUED.includes(name)) return isSafeCssValue(value);
  return true;
}

/**
 * Runs on every element before the allowlist: canonical names for the elements dropped with their
 * content, `xlink:href` spelt `href` (SVG 2; so the output needs no xlink namespace), and values checked.
 */
function checkElement(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const kept: sanitizeHtml.Attributes = {};
  for (const [rawName, value] of Object.entries(attribs)) {
    const name = rawName === 'xlink:href' ? 'href' : rawName;
    if (Object.hasOwn(kept, name)) continue; // `href` and `xlink:href` both sent: the first wins
    if (keepAttribute(name, value)) kept[name] = value;
  }
  return { tagName: canonicalName(tagName), attribs: kept };
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  // `style` attributes are dropped whole: CSS can fetch (`url()`, `image-set()`), hide behind escapes
  // and place the map over the page (`position: fixed`). Presentation attributes draw a seat map.
  parseStyleAttributes: false,
  // No schemes at all: `href` is checked to be a local `#id` in `keepAttribute`.
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  transformTags: { '*': checkElement },
  // Case kept: lower-casing would turn `viewBox` into `viewbox`, which SVG ignores. DOCTYPEs (with any
  // `<!ENTITY>`), processing instructions, comments and CDATA are never emitted; entities are not expanded.
  parser: { lowerCaseTags: false, lowerCaseAttributeNames: false },
};

/** A tag of sanitize-html's output: it escapes `<` and `>` in text and values and closes what it opens. */
const TAG = /<(\/?)([^\s/>]+)[^>]*>/g;

/**
 * The one top-level `<svg>` element of sanitised markup, or null when there is none or there are
 * others beside it. Text outside it (left over from a DOCTYPE's internal subset, say) is dropped.
 */
function singleSvgRoot(markup: string): string | null {
  let depth = 0;
  let root: { start: number; stop: number } | null = null;
  for (const match of markup.matchAll(TAG)) {
    const [tag, closing, name] = match;
    const at = match.index ?? 0;
    if (closing) {
      depth -= 1;
      if (depth < 0) return null;
      if (depth === 0 && root) root.stop = at + tag.length;
    } else {
      if (depth === 0) {
        if (root || name !== 'svg') return null;
        root = { start: at, stop: -1 };
      }
      depth += 1;
    }
  }
  return root && root.stop > root.start ? markup.slice(root.start, root.stop) : null;
}

/**
 * How deep elements may nest. htmlparser2 keeps its open elements in an array it shifts at the front,
 * so each element costs as much as the depth: 300,000 unclosed `<g>` (under 1 MB) held a core for
 * half a minute. Seat maps nest a dozen deep; this bounds the work at a few passes over the input.
 */
export const SVG_MAX_DEPTH = 100;

class TooDeep extends Error {}

/**
 * Partner SVG markup reduced to what a seat map needs: one `<svg>` root holding only allowlisted
 * elements and attributes. An error message instead when the markup is over 1 MB, nests too deeply,
 * or is not an SVG document (no `<svg>` root survives, or other elements sit beside it).
 */
export function sanitizeSvg(svg: string): { svg: string } | { error: string } {
  if (Buffer.byteLength(svg, 'utf8') > SVG_MAX_BYTES) return { error: 'must be at most 1 MB' };
  const sanitised = run(svg, OPTIONS);
  if (sanitised === null) return { error: `must not nest elements more than ${SVG_MAX_DEPTH} deep` };
  const root = singleSvgRoot(sanitised);
  return root === null ? { error: 'must be an SVG document: one <svg> element' } : { svg: root };
}

/** Called as the parser opens and closes each element, before anything is dropped or changed. */
interface Hooks {
  open?: (tagName: string, attribs: sanitizeHtml.Attributes) => void;
  close?: () => void;
}

/** sanitize-html with the depth bound; null when the markup nests too deeply. */
function run(svg: string, options: sanitizeHtml.IOptions, hooks: Hooks = {}): string | null {
  // Counted the way the parser opens and closes elements (its hooks run before anything is dropped).
  let depth = 0;
  try {
    return sanitizeHtml(svg, {
      ...options,
      onOpenTag: (tagName, attribs) => {
        depth += 1;
        if (depth > SVG_MAX_DEPTH) throw new TooDeep();
        hooks.open?.(tagName, attribs);
      },
      onCloseTag: () => {
        depth -= 1;
        hooks.close?.();
      },
    });
  } catch (err) {
    if (err instanceof TooDeep) return null;
    throw err;
  }
}

/* ---------- The seat map ---------- */

/**
 * How a ticket's `seating.section` and an SVG element name the same section: trimmed, case-insensitive
 * (docs: "The seat map"). `" Grada A"` and `grada a` are one section.
 */
export function sectionKey(name: string): string {
  return name.trim().toLowerCase();
}

/** A section as the SVG draws it. */
export interface SvgSection {
  /** As the SVG writes it (`data-section`, else the `id`). */
  name: string;
  key: string;
  /** `data-label`, else `aria-label`; null when the element has neither. */
  label: string | null;
}

/** An element that may be a section: every `data-section`, and every `id` (a section when a ticket names it). */
interface Candidate extends SvgSection {
  declared: boolean;
  /** The partner's own `class` on it, merged with the page's marks. */
  className: string;
  /** The partner's own `aria-label` and `role` (cleaned), written back when the page marks it not. */
  own: string;
  /** The candidates around it, nearest first: a section inside a linked section is not a link of its own. */
  outer: number[];
}

/** A seat (`data-seat="<row>-<seat>"`): the candidates around it, nearest first, and its own `class`. */
interface SeatSpot {
  within: number[];
  seat: string;
  className: string;
}

/** Where a render writes its marks: before a candidate (a link's start), in its tag, after it (the link's end), on a seat. */
type Slot = { at: 'before' | 'attrs' | 'after'; candidate: number } | { at: 'seat'; seat: number };

/**
 * A map made ready to draw, once per markup (and id prefix): cleaned, ids and local references prefixed,
 * and cut where each candidate section and each seat takes its marks (`parts[0] slot[0] parts[1] … parts[n]`).
 * A render then only joins the parts with its marks: no parse (a 200-section map with its seats is ~100 KB;
 * parsing and cleaning it took a render's own time again).
 */
interface PreparedMap {
  parts: string[];
  slots: Slot[];
  candidates: Candidate[];
  seats: SeatSpot[];
}

const TOKEN_ATTRIBUTES = ['data-encore-mark', 'data-encore-seat'];
const prepared = new LRUCache<string, PreparedMap | { invalid: true }>({
  max: 200,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (map) =>
    'parts' in map
      ? Math.max(
          1,
          map.parts.reduce((n, p) => n + p.length * 2, 64),
        )
      : 1,
});

function candidateOf(attribs: sanitizeHtml.Attributes, outer: number[]): Omit<Candidate, 'own'> | null {
  const declared = attribs['data-section']?.trim();
  const name = declared || attribs.id?.trim();
  if (!name) return null;
  const label = attribs['data-label']?.trim() || attribs['aria-label']?.trim() || null;
  return { name, key: sectionKey(name), label, declared: !!declared, className: attribs.class?.trim() ?? '', outer };
}

/** `version`: a hash of `svg` the caller already has (the catalogue's `svgVersion`), else one is made. */
function prepare(svg: string, idPrefix: string, version?: string): PreparedMap | null {
  const cacheKey = `${idPrefix}\n${version ?? createHash('sha256').update(svg).digest('base64url')}`;
  const hit = prepared.get(cacheKey);
  if (hit) return 'parts' in hit ? hit : null;
  const candidates: Candidate[] = [];
  const seats: SeatSpot[] = [];
  // Per open element: its own candidate index (or -1), and the candidates around it (nearest first).
  const own: number[] = [];
  const around: number[][] = [];
  const hooks: Hooks = {
    open: (_, attribs) => {
      const candidate = candidateOf(attribs, around.at(-1) ?? []);
      const index = candidate ? candidates.push({ ...candidate, own: '' }) - 1 : -1;
      own.push(index);
      around.push(index >= 0 ? [index, ...(around.at(-1) ?? [])] : (around.at(-1) ?? []));
    },
    close: () => {
      own.pop();
      around.pop();
    },
  };
  const prefix = (value: string) => value.replace(/#/g, `#${idPrefix}`);
  const drawn = run(
    svg,
    {
      ...OPTIONS,
      allowedAttributes: Object.fromEntries(
        Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names, ...TOKEN_ATTRIBUTES, 'focusable']]),
      ),
      transformTags: {
        '*': (tagName, attribs) => {
          const checked = checkElement(tagName, attribs);
          const out: sanitizeHtml.Attributes = {};
          for (const [name, value] of Object.entries(checked.attribs)) {
            if (name === 'id') out.id = `${idPrefix}${value}`;
            else if (name === 'href' || value.includes('url(#')) out[name] = prefix(value);
            else out[name] = value;
          }
          const index = own.at(-1) ?? -1;
          const seat = checked.attribs['data-seat']?.trim();
          if (index >= 0) {
            // Its class comes back with the marks (an attribute written twice would keep the first); the
            // section's name and label are said by the marks (each byte of the map is sent twice: HTML and payload).
            // Its name and role likewise (an element with two would be read by the first: the partner's).
            candidates[index].own = ['aria-label', 'role']
              .filter((name) => out[name] !== undefined)
              .map((name) => ` ${name}="${escapeHtml(out[name])}"`)
              .join('');
            for (const name of ['class', 'data-section', 'data-label', 'aria-label', 'role']) delete out[name];
            out['data-encore-mark'] = String(index);
          } else if (seat) {
            delete out.class;
            out['data-encore-seat'] = String(
              seats.push({ within: around.at(-1) ?? [], seat, className: checked.attribs.class?.trim() ?? '' }) - 1,
            );
          }
          if (checked.tagName === 'svg') {
            out.focusable = 'false';
            out.role = 'group';
          }
          return { tagName: checked.tagName, attribs: out };
        },
      },
    },
    hooks,
  );
  const root = drawn === null ? null : singleSvgRoot(drawn);
  const map = root === null ? null : { ...cutAtTokens(root), candidates, seats };
  prepared.set(cacheKey, map ?? { invalid: true });
  return map;
}

const TOKEN = / data-encore-(mark|seat)="(\d+)"/;

/** The prepared markup cut at its tokens: a candidate's start, its tag's marks and its end; a seat's marks. */
function cutAtTokens(markup: string): Pick<PreparedMap, 'parts' | 'slots'> {
  const parts: string[] = [];
  const slots: Slot[] = [];
  let cursor = 0;
  const cut = (at: number, slot: Slot, resume = at) => {
    parts.push(markup.slice(cursor, at));
    slots.push(slot);
    cursor = resume;
  };
  // Per open element: the candidate it is, or -1 (sanitize-html's output closes every element it opens).
  const open: number[] = [];
  for (const match of markup.matchAll(TAG)) {
    const [tag, closing] = match;
    const at = match.index ?? 0;
    if (closing) {
      const candidate = open.pop() ?? -1;
      if (candidate >= 0) cut(at + tag.length, { at: 'after', candidate });
      continue;
    }
    const token = TOKEN.exec(tag);
    const n = token ? Number(token[2]) : -1;
    open.push(token?.[1] === 'mark' ? n : -1);
    if (!token) continue;
    const tokenAt = at + (token.index ?? 0);
    if (token[1] === 'mark') cut(at, { at: 'before', candidate: n });
    cut(
      tokenAt,
      token[1] === 'mark' ? { at: 'attrs', candidate: n } : { at: 'seat', seat: n },
      tokenAt + token[0].length,
    );
  }
  parts.push(markup.slice(cursor));
  return { parts, slots };
}

const cleanedMaps = new LRUCache<string, { svg: string } | { error: string }>({
  max: 200,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (answer) => ('svg' in answer ? Math.max(1, answer.svg.length * 2) : 1),
});

/** `sanitizeSvg` of a stored map, kept by the markup's hash: a map is read far more often than written. */
export function cleanSeatMap(svg: string): string | null {
  const key = createHash('sha256').update(svg).digest('base64url');
  let answer = cleanedMaps.get(key);
  if (!answer) cleanedMaps.set(key, (answer = sanitizeSvg(svg)));
  return 'svg' in answer ? answer.svg : null;
}

/** The candidates that are sections: declared, or an id a ticket names (`named`). */
function isSection(candidate: Candidate, named: ReadonlySet<string>): boolean {
  return candidate.declared || named.has(candidate.key);
}

/**
 * The sections of a seat map: every element with a `data-section`, and every element whose `id` names a
 * section some ticket has (`named`: section keys). In document order, each section once. The markup is
 * cleaned again on the way (a map stored before it was cleaned on write is read the same way).
 */
export function svgSections(svg: string, named: ReadonlySet<string>, version?: string): SvgSection[] {
  const map = prepare(svg, '', version);
  const found = new Map<string, SvgSection>();
  for (const c of map?.candidates ?? []) {
    if (isSection(c, named) && !found.has(c.key)) found.set(c.key, { name: c.name, key: c.key, label: c.label });
  }
  return [...found.values()];
}

/** What the page draws on one section, and on the listed seats inside sections. */
export interface SeatMapMarks {
  /**
   * By section key: its class and accessible name, and where it leads. A section with `href` is drawn inside
   * a link (`<a>` with the class and name: focusable, followed by a click or Enter before any script runs;
   * `current` when it is the page's own filter), one without is an image with its name (`role="img"`,
   * `data-map-section` its key).
   */
  sections: ReadonlyMap<string, { className?: string; label: string; href?: string; current?: boolean }>;
  /** Seats marked `data-seat="<row>-<seat>"` inside a section, by `<section key> <row>-<seat>`: their class. */
  seats?: ReadonlyMap<string, string>;
  /** Section keys of every ticket (an `id` naming one is a section). */
  named: ReadonlySet<string>;
  /** Prefixed to every id and local reference: partner ids must not clash with the page's own. */
  idPrefix: string;
  /** A hash of the markup the caller already has (the catalogue's `svgVersion`). */
  version?: string;
  /** The browsing context the sections' links open in (`_parent`: the page around a map drawn in a frame). */
  target?: string;
}

const classAttribute = (...names: (string | undefined)[]) => {
  const value = names.filter(Boolean).join(' ');
  return value ? ` class="${escapeHtml(value)}"` : '';
};

/**
 * The seat map as drawn inline on a fan's page: cleaned again (a map stored before cleaning on write
 * included), ids and local references prefixed, each section and listed seat marked (`marks`). Null when
 * the markup is not an SVG document.
 */
export function drawSeatMap(svg: string, marks: SeatMapMarks): string | null {
  const map = prepare(svg, marks.idPrefix, marks.version);
  if (!map) return null;
  const markOf = (n: number) => {
    const c = map.candidates[n];
    return isSection(c, marks.named) ? marks.sections.get(c.key) : undefined;
  };
  // Candidates drawn inside a link of their own (never a link inside another: the outer one leads).
  const linked = new Set<number>();
  let out = map.parts[0];
  map.slots.forEach((slot, i) => {
    if (slot.at === 'seat') {
      const spot = map.seats[slot.seat];
      const section = spot.within.map((n) => map.candidates[n]).find((c) => isSection(c, marks.named));
      out += classAttribute(spot.className, section ? marks.seats?.get(`${section.key} ${spot.seat}`) : undefined);
    } else {
      const c = map.candidates[slot.candidate];
      const mark = markOf(slot.candidate);
      if (slot.at === 'before') {
        if (mark?.href && !c.outer.some((n) => linked.has(n))) {
          linked.add(slot.candidate);
          // Nothing but what it needs: a map's 200 links are sent twice (HTML, and escaped in the payload).
          out +=
            `<a href="${escapeHtml(mark.href)}"${marks.target ? ` target="${escapeHtml(marks.target)}"` : ''}` +
            ` aria-label="${escapeHtml(mark.label)}"` +
            `${classAttribute(mark.className)}${mark.current ? ' aria-current="true">' : '>'}`;
        }
      } else if (slot.at === 'after') {
        if (linked.has(slot.candidate)) out += '</a>';
      } else if (!mark) {
        out += classAttribute(c.className) + c.own;
      } else if (linked.has(slot.candidate)) {
        out += classAttribute(c.className);
      } else {
        // ARIA allows no name on a shape without a role: a section without a link is an image with its name.
        out +=
          `${classAttribute(c.className, mark.className)} data-map-section="${escapeHtml(c.key)}"` +
          ` aria-label="${escapeHtml(mark.label)}" role="img"`;
      }
    }
    out += map.parts[i + 1];
  });
  return out;
}

/**
 * The drawn map's width to height (its root's `viewBox`, else its `width` and `height`; 2 when it says
 * neither), or null when the markup cannot be drawn (not an SVG document). From the map as prepared for
 * drawing, so as cheap as a look-up once it was drawn; `idPrefix` and `version` as for `drawSeatMap`.
 */
export function seatMapAspect(svg: string, idPrefix: string, version?: string): number | null {
  const map = prepare(svg, idPrefix, version);
  if (!map) return null;
  // The root's tag, in the first part that has it (a root that is itself a section is cut by its marks).
  const root = /<svg\b[^>]*/i.exec(map.parts.find((part) => /<svg\b/i.test(part)) ?? '')?.[0] ?? '';
  const number = '([0-9]*\\.?[0-9]+)';
  const viewBox = new RegExp(`\\bviewBox="\\s*-?[0-9.]+[\\s,]+-?[0-9.]+[\\s,]+${number}[\\s,]+${number}`).exec(root);
  const width = new RegExp(`\\swidth="${number}`).exec(root)?.[1];
  const height = new RegExp(`\\sheight="${number}`).exec(root)?.[1];
  const [w, h] = viewBox ? [viewBox[1], viewBox[2]] : [width, height];
  const ratio = Number(w) / Number(h);
  return Number.isFinite(ratio) && ratio > 0 ? Math.min(10, Math.max(0.1, ratio)) : 2;
}
