import { WIDGET_CSS } from './styles';

/* What the widget's elements share: Encore's origin, their stylesheet and the one way they build DOM. */

/** Encore's own origin: where this script was loaded from. */
export const ORIGIN = (() => {
  const script = document.currentScript as HTMLScriptElement | null;
  return script?.src ? new URL(script.src).origin : location.origin;
})();

let sheet: CSSStyleSheet | null = null;
export function adoptStyles(root: ShadowRoot) {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
  }
  root.adoptedStyleSheets = [sheet];
}

/** `h('a', { href }, 'text')`: an element with properties and children, never markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) el.setAttribute(name, value);
  for (const child of children) if (child !== null) el.append(child);
  return el;
}
