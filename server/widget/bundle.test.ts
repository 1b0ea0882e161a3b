import { describe, expect, it } from 'vitest';
import { WIDGET_MAX_GZIP_BYTES, widgetBundle } from './bundle';

/*
 * The widget's script as `/widget/v1.js` serves it: small, and nothing in it a strict page policy
 * would block or a partner's page should fear.
 */
describe('the widget script', () => {
  it('is at most 15 KB gzipped', async () => {
    const { bytes, gzipBytes } = await widgetBundle();
    expect(bytes).toBeGreaterThan(1000);
    expect(gzipBytes).toBeLessThanOrEqual(WIDGET_MAX_GZIP_BYTES);
  });

  it('evaluates no text, writes no markup but the cleaned map, and styles only through constructed sheets', async () => {
    const { code } = await widgetBundle();
    expect(code).not.toMatch(/\beval\(|new Function|setTimeout\(["'`]|setInterval\(["'`]/);
    // No markup is written (the seat map is parsed as SVG by DOMParser, never as HTML).
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    // No <style> element and no style attribute, which a policy without 'unsafe-inline' blocks.
    expect(code).not.toMatch(/createElement\(["'`]style["'`]\)|setAttribute\(["'`]style["'`]|\.style\.cssText/);
    expect(code).toContain('adoptedStyleSheets');
    expect(code).toContain('encore-resale');
    expect(code).toContain('encore-sell');
    // Only publishable keys are sent: a secret key in the attribute is refused before any request.
    expect(code).toMatch(/pk_\(live\|test\)_/);
  });
});
