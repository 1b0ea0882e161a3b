import { type BrowserContext, expect, test as base } from '@playwright/test';

/**
 * Playwright's `test`, with one automatic check on every test: no Content Security Policy violation in
 * the browser console of any page the test opens, in its own context and in the contexts it makes with
 * `browser.newContext()` (every page Playwright visits keeps to the policy, so a script or style the
 * policy would block is found here, not by a fan's broken page).
 */
export const test = base.extend<{ cspGuard: void; allowedCspViolations: RegExp[] }>({
  // A test that provokes a violation on purpose (a page framed where it must not be) names it here.
  allowedCspViolations: [[], { option: true }],
  cspGuard: [
    async ({ context, browser, allowedCspViolations }, run) => {
      const violations: string[] = [];
      const watch = (ctx: BrowserContext) =>
        ctx.on('console', (msg) => {
          const text = msg.text();
          if (
            msg.type() === 'error' &&
            /Content Security Policy/i.test(text) &&
            !allowedCspViolations.some((allowed) => allowed.test(text))
          ) {
            violations.push(`${msg.location().url}: ${text}`);
          }
        });
      watch(context);
      // The browser is the worker's, shared by its tests one after another: patched for this test only.
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const made = await newContext.apply(browser, args);
        watch(made);
        return made;
      };
      try {
        await run();
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, 'Content Security Policy violations in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
