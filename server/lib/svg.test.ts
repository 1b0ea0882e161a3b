import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanSeatMap,
  drawSeatMap,
  sanitizeSvg,
  seatMapAspect,
  sectionKey,
  SVG_MAX_BYTES,
  SVG_MAX_DEPTH,
  svgSections,
} from './svg';

/** The sanitised markup, failing the test when the sanitiser refused it. */
function kept(markup: string): string {
  const result = sanitizeSvg(markup);
  if (!('svg' in result)) throw new Error(`refused: ${result.error}`);
  return result.svg;
}

/** Nothing in the markup can run, load or restyle the page it is drawn on. */
function expectHarmless(svg: string) {
  expect(svg).toMatch(/^<svg[\s>][\s\S]*<\/svg>$/);
  expect(svg).not.toMatch(/script/i);
  expect(svg).not.toMatch(/foreignObject|iframe|<style|<image|<set|<animate|<a[\s>]/i);
  expect(svg).not.toMatch(/<!|<\?|\]\]>/);
  // Attributes live in tags; text between them is escaped (`&lt;`), so it cannot open one.
  const tags = (svg.match(/<[^>]*>/g) ?? []).join('');
  expect(tags).not.toMatch(/\son[a-z]+\s*=/i);
  expect(tags).not.toMatch(/javascript:/i);
  expect(tags).not.toMatch(/style=/i);
  expect(tags).not.toMatch(/url\(/i);
  expect(tags).not.toMatch(/href="(?!#)/);
}

const SEAT_MAP =
  '<svg viewBox="0 0 100 50" xmlns="http://www.w3.org/2000/svg">' +
  '<defs><linearGradient id="floor" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#eee"></stop></linearGradient>' +
  '<clipPath id="hall"><rect width="100" height="50"></rect></clipPath>' +
  '<symbol id="chair" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"></circle></symbol></defs>' +
  '<g id="A" class="section" data-section="A" clip-path="url(#hall)" transform="translate(10 5) rotate(0)">' +
  '<rect x="0" y="0" width="40" height="20" fill="url(#floor)" stroke="#333" stroke-width="0.5"></rect>' +
  '<circle data-seat="1-2" data-row="1" cx="5" cy="5" r="2" fill="rgb(0, 128, 0)" role="button" aria-label="Row 1, seat 2">' +
  '<title>Row 1, seat 2</title></circle>' +
  '<use href="#chair" x="10" y="5" width="4" height="4"></use></g>' +
  '<text x="50" y="45" text-anchor="middle" font-size="4">Stage</text></svg>';

describe('sanitizeSvg: a seat map', () => {
  it('keeps a seat map as sent: elements, data attributes, local references and the case of viewBox', () => {
    expect(kept(SEAT_MAP)).toBe(SEAT_MAP);
  });

  it('keeps case as sent, so camel-cased names work, and drops what SVG would not recognise anyway', () => {
    expect(kept('<svg viewBox="0 0 1 1"><linearGradient id="g"></linearGradient></svg>')).toBe(
      '<svg viewBox="0 0 1 1"><linearGradient id="g"></linearGradient></svg>',
    );
    // SVG is case-sensitive: `viewbox` and `lineargradient` do nothing in a standalone SVG.
    expect(kept('<svg viewbox="0 0 1 1"><lineargradient id="g"><stop/></lineargradient></svg>')).toBe(
      '<svg><stop></stop></svg>',
    );
  });

  it('writes self-closed elements open and closed, and `xlink:href` as `href`, so the output needs no namespaces', () => {
    expect(kept('<svg><rect width="1"/><use xlink:href="#chair"/></svg>')).toBe(
      '<svg><rect width="1"></rect><use href="#chair"></use></svg>',
    );
  });

  it('keeps the <svg> root only, dropping an XML prolog, comments and text around it', () => {
    expect(kept('<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: Illustrator -->\n<svg></svg>\n')).toBe(
      '<svg></svg>',
    );
  });

  it('gives the same markup when sanitised again (what is stored is what is echoed)', () => {
    expect(kept(kept(SEAT_MAP))).toBe(SEAT_MAP);
  });
});

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE svg [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol3; &xxe;</text></svg>`;

/** Each hostile map and what is left of it: never anything that runs, loads or styles. */
const HOSTILE: [string, string, string][] = [
  ['a <script>', '<svg><script>alert(1)</script><rect width="1"/></svg>', '<svg><rect width="1"></rect></svg>'],
  ['a <script> in capitals', '<svg><SCRIPT>alert(1)</SCRIPT><ScRiPt>alert(2)</ScRiPt></svg>', '<svg></svg>'],
  ['onload= on the root', '<svg onload="alert(1)" viewBox="0 0 1 1"></svg>', '<svg viewBox="0 0 1 1"></svg>'],
  [
    'handlers on a path, in any case',
    '<svg><path d="M0 0L1 1" onclick="alert(2)" ONMOUSEOVER="alert(3)" onFocus="alert(4)"/></svg>',
    '<svg><path d="M0 0L1 1"></path></svg>',
  ],
  [
    '<a href="javascript:…">',
    '<svg><a href="javascript:alert(1)"><text>Buy</text></a></svg>',
    '<svg><text>Buy</text></svg>',
  ],
  [
    '<a xlink:href="javascript:…">, entity-encoded',
    '<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="&#106;avascript:alert(1)"><rect/></a></svg>',
    '<svg><rect></rect></svg>',
  ],
  [
    '<foreignObject> with an <iframe> and HTML',
    '<svg><foreignObject width="9" height="9"><iframe src="https://evil.example/"></iframe><div>Win!</div></foreignObject></svg>',
    '<svg></svg>',
  ],
  ['an external <use href>', '<svg><use href="https://evil.example/x.svg#a"/></svg>', '<svg><use></use></svg>'],
  [
    'a data: <use xlink:href>',
    '<svg><use xlink:href="data:image/svg+xml;base64,PHN2Zz4=#a"/></svg>',
    '<svg><use></use></svg>',
  ],
  ['a javascript: <use href>', '<svg><use href=" javascript:alert(1)"/></svg>', '<svg><use></use></svg>'],
  [
    'a <style> with @import',
    '<svg><style>@import url(https://evil.example/x.css); rect { fill: red }</style><rect/></svg>',
    '<svg><rect></rect></svg>',
  ],
  [
    'a style attribute with url()',
    '<svg><rect style="fill:url(https://evil.example/x)" width="1"/></svg>',
    '<svg><rect width="1"></rect></svg>',
  ],
  [
    'a style attribute placing the root over the page',
    '<svg style="position:fixed;inset:0;z-index:99" class="fixed inset-0"></svg>',
    '<svg></svg>',
  ],
  [
    'presentation attributes with remote url(), an escape or another function',
    '<svg><rect fill="url(https://evil.example/p)" stroke="URL(&quot;//evil.example/q&quot;)" ' +
      'clip-path="\\75 rl(https://evil.example/c)" mask="image-set(\'https://evil.example/m\' 1x)"/></svg>',
    '<svg><rect></rect></svg>',
  ],
  ['<set> rewriting a handler', '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>', '<svg></svg>'],
  [
    '<animate> rewriting a link',
    '<svg><a><animate attributeName="href" to="javascript:alert(1)"/><text>Go</text></a></svg>',
    '<svg><text>Go</text></svg>',
  ],
  [
    '<animateTransform> and <animateMotion>',
    '<svg><animateTransform attributeName="transform"/><animateMotion path="M0 0"/></svg>',
    '<svg></svg>',
  ],
  [
    'an <image> (tracking, mixed content)',
    '<svg><image href="https://tracker.example/p.png" width="1"/></svg>',
    '<svg></svg>',
  ],
  ['CDATA', '<svg><![CDATA[<script>alert(1)</script>]]></svg>', '<svg></svg>'],
  [
    'markup in a <title>, which browsers parse as HTML inside inline SVG',
    '<svg><title><img src=x onerror=alert(1)></title></svg>',
    '<svg><title>&lt;img src=x onerror=alert(1)&gt;</title></svg>',
  ],
];

describe('sanitizeSvg: hostile maps', () => {
  it.each(HOSTILE)('%s: stored harmless', (_name, hostile, expected) => {
    expectHarmless(kept(hostile));
    expect(kept(hostile)).toBe(expected);
  });

  it('does not expand DOCTYPE entities (billion laughs, XXE): the DOCTYPE goes, references stay text', () => {
    const svg = kept(BILLION_LAUGHS);
    expect(svg).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text>&amp;lol3; &amp;xxe;</text></svg>');
    expectHarmless(svg);
  });

  it('refuses markup that is not one SVG document', () => {
    for (const markup of [
      'hello',
      '<g><rect/></g>',
      '<svg></svg><svg></svg>',
      '<title>x</title><svg></svg>',
      '<script><svg></svg></script>',
      '<foreignObject><svg></svg></foreignObject>',
    ]) {
      expect(sanitizeSvg(markup), markup).toEqual({ error: 'must be an SVG document: one <svg> element' });
    }
  });

  it('unwraps a root inside dropped wrappers (an <a>, an HTML page) rather than refuse it', () => {
    expect(kept('<a href="javascript:alert(1)"><svg><rect/></svg></a>')).toBe('<svg><rect></rect></svg>');
    expect(kept('<html><body><svg></svg></body></html>')).toBe('<svg></svg>');
  });

  it(`refuses markup over ${SVG_MAX_BYTES} bytes, counted in UTF-8`, () => {
    const fits = `<svg>${'x'.repeat(SVG_MAX_BYTES - '<svg></svg>'.length)}</svg>`;
    expect(sanitizeSvg(fits)).toEqual({ svg: fits });
    expect(sanitizeSvg(`${fits} `)).toEqual({ error: 'must be at most 1 MB' });
    // 'é' is two bytes: half as many characters are already too many.
    expect(sanitizeSvg(`<svg>${'é'.repeat(SVG_MAX_BYTES / 2)}</svg>`)).toEqual({ error: 'must be at most 1 MB' });
  });

  it(`refuses elements nested more than ${SVG_MAX_DEPTH} deep, before the parser's cost grows with the depth`, () => {
    const nested = (depth: number) => `<svg>${'<g>'.repeat(depth - 1)}${'</g>'.repeat(depth - 1)}</svg>`;
    expect(sanitizeSvg(nested(SVG_MAX_DEPTH))).toEqual({ svg: nested(SVG_MAX_DEPTH) });
    const refusal = { error: `must not nest elements more than ${SVG_MAX_DEPTH} deep` };
    expect(sanitizeSvg(nested(SVG_MAX_DEPTH + 1))).toEqual(refusal);
    // Without the limit this one (under 1 MB) took half a minute.
    expect(sanitizeSvg(`<svg>${'<g>'.repeat(300_000)}</svg>`)).toEqual(refusal);
  });
});

const ALLOWED_TAGS = new Set(
  'svg g defs symbol use title desc path rect circle ellipse line polyline polygon text tspan linearGradient radialGradient stop clipPath mask'.split(
    ' ',
  ),
);

describe('sanitizeSvg: any markup', () => {
  it('leaves only allowlisted elements, no handlers, no links out, and the same markup when sanitised again', () => {
    const piece = fc.constantFrom(
      '<svg>',
      '</svg>',
      '<svg/>',
      '<g>',
      '</g>',
      '<rect ',
      '<use ',
      '<a ',
      '<script>',
      '</script>',
      '<SCRIPT>',
      '<style>',
      '</style>',
      '<title>',
      '</title>',
      '<foreignObject>',
      '</foreignObject>',
      '<![CDATA[',
      ']]>',
      '<!--',
      '-->',
      '<!DOCTYPE svg [<!ENTITY x "<script>">]>',
      '<?xml ?>',
      ' onload=',
      ' href=',
      ' xlink:href=',
      ' fill=',
      ' style=',
      '"',
      "'",
      '<',
      '>',
      '/>',
      '/',
      '=',
      ' ',
      '#a',
      'javascript:alert(1)',
      '&#106;',
      '&quot;',
      'url(',
      'url(#a)',
      ')',
      '\\',
      'x',
    );
    // Half start as an SVG document, so most of those get past the root check to the allowlist.
    const markup = fc
      .tuple(fc.boolean(), fc.array(piece, { maxLength: 30 }))
      .map(([rooted, parts]) => (rooted ? '<svg>' : '') + parts.join(''));
    fc.assert(
      fc.property(markup, (input) => {
        const result = sanitizeSvg(input);
        if (!('svg' in result)) return;
        const { svg } = result;
        expect(svg).toMatch(/^<svg[\s>][\s\S]*<\/svg>$/);
        // Text between tags is escaped (no `<` or `>`), so every `<…>` is a tag and every tag is one of these.
        for (const [tag, element] of svg.matchAll(/<\/?([^\s/>]+)[^>]*>/g)) {
          expect(ALLOWED_TAGS).toContain(element);
          for (const [, name, value] of tag.matchAll(/\s([^\s=]+)="([^"]*)"/g)) {
            expect(name).not.toMatch(/^on|^style$/i);
            if (name === 'href') expect(value).toMatch(/^#/);
            expect(value).not.toMatch(/javascript:/i);
            expect(value.replace(/url\(#/gi, '')).not.toMatch(/url\(/i);
          }
        }
        expect(sanitizeSvg(svg)).toEqual({ svg });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the seat map: sections and drawing', () => {
  const MAP =
    '<svg viewBox="0 0 100 50" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>' +
    '<g id="A" class="stand" data-label="Grada &quot;A&quot;"><rect width="40" height="40" fill="url(#g)"/>' +
    '<circle data-seat="1-7" class="seat" cx="5" cy="5" r="2"/><circle data-seat="1-8" cx="9" cy="5" r="2"/></g>' +
    '<path data-section=" B " aria-label="Palco B" d="M50 0h40v40H50z" onclick="alert(1)"/>' +
    '<rect id="main" width="100" height="50"/><use href="#A"/><script>alert(2)</script></svg>';

  it('finds sections by data-section, or by an id a ticket names, trimmed and case-insensitive', () => {
    expect(sectionKey('  Grada A ')).toBe('grada a');
    expect(svgSections(MAP, new Set(['a']))).toEqual([
      { name: 'A', key: 'a', label: 'Grada "A"' },
      { name: 'B', key: 'b', label: 'Palco B' },
    ]);
    // An id no ticket names is not a section (ids also name gradients and frames); data-section always is.
    expect(svgSections(MAP, new Set())).toEqual([{ name: 'B', key: 'b', label: 'Palco B' }]);
    expect(svgSections('<p>not a map</p>', new Set(['a']))).toEqual([]);
  });

  it('draws the map cleaned, ids prefixed, sections named and linked, listed seats marked', () => {
    const drawn = drawSeatMap(MAP, {
      named: new Set(['a', 'main']),
      idPrefix: 'sm-',
      sections: new Map([
        [
          'a',
          { className: 'on', label: 'Grada "A", 1 ticket from €5 <cheap>', href: '?show=1&section=A', current: true },
        ],
        ['b', { className: 'off', label: 'Palco B, none' }],
      ]),
      seats: new Map([['a 1-7', 'listed']]),
    })!;
    expect(drawn).not.toMatch(/<script|onclick|alert/);
    // Partner ids cannot clash with the page's (`main`), references follow.
    expect(drawn).toContain('id="sm-g"');
    expect(drawn).toContain('fill="url(#sm-g)"');
    expect(drawn).toContain('href="#sm-A"');
    expect(drawn).toContain('id="sm-main"');
    expect(drawn).not.toMatch(/ id="main"/);
    // The section with a link: drawn inside it, the link named (escaped) with the page's class, the element
    // keeping its own; the partner's data-section and data-label are said by the marks, not sent again.
    expect(drawn).toContain(
      '<a href="?show=1&amp;section=A" aria-label="Grada &quot;A&quot;, 1 ticket from €5 &lt;cheap&gt;" class="on" aria-current="true"><g id="sm-A" class="stand">',
    );
    expect(drawn).toMatch(/<circle data-seat="1-8" cx="9" cy="5" r="2"><\/circle><\/g><\/a>/);
    expect(drawn).not.toContain('data-label');
    // Without a link: an image with its name.
    expect(drawn).toContain(
      '<path d="M50 0h40v40H50z" class="off" data-map-section="b" aria-label="Palco B, none" role="img">',
    );
    // A named id without marks (no tickets drawn for it) gets none.
    expect(drawn).not.toContain('data-map-section="main"');
    // Seats: the listed one marked, its own class kept; the other untouched.
    expect(drawn).toContain('<circle data-seat="1-7" cx="5" cy="5" r="2" class="seat listed">');
    expect(drawn).toContain('<circle data-seat="1-8" cx="9" cy="5" r="2">');
    expect(drawn).not.toContain('data-encore-');
    // The same map drawn again with other marks (a later render): the preparation is shared, the marks are not.
    const again = drawSeatMap(MAP, { named: new Set(['a']), idPrefix: 'sm-', sections: new Map() })!;
    expect(again).not.toContain('data-map-section');
    expect(again).not.toContain('<a ');
    expect(again).toContain('class="stand"');
    // Unmarked, a section keeps the partner's own name.
    expect(again).toContain('<path d="M50 0h40v40H50z" aria-label="Palco B">');
    // A section inside a linked one is not a link of its own (no link in a link): an image with its name.
    const nested = drawSeatMap(
      '<svg xmlns="http://www.w3.org/2000/svg"><g data-section="A"><rect data-section="A1" width="4" height="4"/></g></svg>',
      {
        named: new Set(),
        idPrefix: 'sm-',
        sections: new Map([
          ['a', { className: 'on', label: 'A', href: '?section=A' }],
          ['a1', { className: 'on', label: 'A1', href: '?section=A1' }],
        ]),
      },
    )!;
    expect(nested.match(/<a /g)).toHaveLength(1);
    expect(nested).toContain(
      '<rect width="4" height="4" class="on" data-map-section="a1" aria-label="A1" role="img"></rect></g></a>',
    );
    expect(drawSeatMap('<p>no</p>', { named: new Set(), idPrefix: 'sm-', sections: new Map() })).toBeNull();
    // Drawn in a frame, its links open in the page around it.
    const framed = drawSeatMap(MAP, {
      named: new Set(['a']),
      idPrefix: 'sm-',
      target: '_parent',
      sections: new Map([['a', { label: 'A', href: '/market/e?section=A' }]]),
    })!;
    expect(framed).toContain('<a href="/market/e?section=A" target="_parent" aria-label="A">');
  });

  it('tells the drawn map’s shape (its viewBox, else width and height), null when it cannot be drawn', () => {
    const svg = (attrs: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" ${attrs}><rect width="1" height="1"/></svg>`;
    expect(seatMapAspect(svg('viewBox="0 0 400 220"'), 'sm-')).toBeCloseTo(400 / 220);
    expect(seatMapAspect(svg('viewBox="-10,-10 ,100 50" width="9" height="9"'), 'sm-')).toBe(2);
    expect(seatMapAspect(svg('width="300" height="600"'), 'sm-')).toBe(0.5);
    // Saying neither (or nonsense): twice as wide as high; never flatter or taller than 10 to 1.
    expect(seatMapAspect(svg(''), 'sm-')).toBe(2);
    expect(seatMapAspect(svg('viewBox="0 0 1000 1"'), 'sm-')).toBe(10);
    expect(seatMapAspect('<p>no</p>', 'sm-')).toBeNull();
  });

  it('serves the cleaned copy of a stored map, the same as sanitizing it', () => {
    const stored = `<svg xmlns="http://www.w3.org/2000/svg"><rect data-section="A" onload="x()"/></svg>`;
    expect(cleanSeatMap(stored)).toBe((sanitizeSvg(stored) as { svg: string }).svg);
    expect(cleanSeatMap(stored)).not.toContain('onload');
    expect(cleanSeatMap('<html>no</html>')).toBeNull();
  });
});
