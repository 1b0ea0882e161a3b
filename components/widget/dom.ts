import { type Locale, supportedLocale } from '@/server/lib/i18n/locale-codes';
import { WIDGET_CSS } from './styles';

/* What the widget's elements share: Encore's origin, their stylesheet and the one way they build DOM. */

/** Encore's own origin: where this script was loaded from. */
export const ORIGIN = (() => {
  const script = document.currentScript as HTMLScriptElement | null;
  return script?.src ? new URL(script.src).origin : location.origin;
})();

let sheet: CSSStyleSheet | null = null;
function adoptStyles(root: ShadowRoot) {
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

/**
 * What both elements are: an open shadow root with the widget's styles, drawn again when an attribute
 * changes, in the language of their `lang` (or the page's) as the API knows it, and hidden with one console
 * warning when they have nothing to show.
 */
export abstract class WidgetElement extends HTMLElement {
  protected root: ShadowRoot;
  private warned = false;

  constructor(private readonly tag: string) {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.root);
  }

  protected abstract refresh(): Promise<void>;

  attributeChangedCallback() {
    if (this.isConnected) void this.refresh();
  }

  protected get language(): Locale {
    return supportedLocale(this.getAttribute('lang') || this.closest('[lang]')?.getAttribute('lang')) ?? 'en';
  }

  /** One warning per element, the reason it shows nothing. */
  protected off(reason: string) {
    this.root.replaceChildren();
    this.hidden = true;
    if (!this.warned) console.warn(`<${this.tag}>: nothing shown: ${reason}`);
    this.warned = true;
  }
}
