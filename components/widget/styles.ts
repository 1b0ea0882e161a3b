/**
 * The widget's look, inside its shadow root. Adopted as a constructed stylesheet (`adoptedStyleSheets`), which
 * a partner page's `style-src` does not govern: no `<style>` element and no `style` attribute is written, so a
 * strict policy that allows only Encore's origin for scripts and connections blocks nothing. Themed from the
 * host page through custom properties (they inherit into the shadow root):
 *
 *   encore-resale, encore-sell { --encore-accent: #0b57d0; --encore-accent-text: #fff; --encore-radius: 8px; }
 *
 * A banner staff gave colours to carries them as `--encore-banner-bg`/`--encore-banner-text` (set through the
 * CSS object model on the host, which no policy blocks either).
 */
export const WIDGET_CSS = `
:host{display:block;font:inherit;color:var(--encore-text,inherit)}
:host([hidden]),[hidden]{display:none!important}
a{color:inherit}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:.5em 1.1em;border:0;
border-radius:var(--encore-radius,8px);background:var(--encore-accent,#0b57d0);color:var(--encore-accent-text,#fff);
font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.btn:focus-visible,.link:focus-visible{outline:3px solid var(--encore-focus,#f5a400);outline-offset:2px}
.banner{padding:1em;border-radius:var(--encore-radius,8px);background:var(--encore-banner-bg,#eef3fd);
color:var(--encore-banner-text,inherit)}
.banner h2{margin:0 0 .25em;font-size:1.1em}.banner p{margin:0 0 .75em}
ul{list-style:none;margin:0;padding:0}
.offer{display:flex;justify-content:space-between;align-items:center;gap:1em;padding:.6em 0;
border-bottom:1px solid var(--encore-line,#d9dde3)}
.offer .what{min-width:0}.offer .price{font-weight:600;white-space:nowrap}
.more{display:inline-block;margin-top:.6em}
.map{margin:0}
.map svg,.map img{display:block;width:100%;height:auto;max-height:24em}
.map a{cursor:pointer;stroke:var(--encore-accent,#0b57d0);stroke-width:2px}
.map a:hover,.map a:focus-visible{stroke-width:4px;outline:none}
.map .off{opacity:.35}
.sections{display:flex;flex-wrap:wrap;gap:.5em;margin-top:.6em}
.sections a{display:inline-flex;align-items:center;min-height:44px;padding:0 .85em;border:1px solid var(--encore-line,#d9dde3);
border-radius:999px;text-decoration:none}
dialog{width:min(960px,96vw);height:min(90vh,900px);padding:0;border:0;border-radius:var(--encore-radius,8px)}
dialog::backdrop{background:rgba(0,0,0,.5)}
dialog iframe{width:100%;height:calc(100% - 52px);border:0}
.bar{display:flex;justify-content:flex-end;padding:4px}
.bar .btn{min-height:44px}
.entry h3{margin:1em 0 0;font-size:1.05em}.entry .when{margin:.1em 0 .4em;opacity:.8}
.ticket{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5em 1em;padding:.6em 0;
border-bottom:1px solid var(--encore-line,#d9dde3)}
.ticket .what{display:flex;flex-direction:column;gap:.15em;min-width:0}.ticket .name{font-weight:600}
.badge{font-size:.9em}.why{font-size:.9em;opacity:.8}
`;
