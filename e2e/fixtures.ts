import { expect, test as base } from '@playwright/test';

/**
 * Playwright's `test`, with one automatic check on every test: no Content Security Policy violation in
 * the browser console of the test's page context (issue 29: every page Playwright visits keeps to the
 * policy, so a script or style the policy would block is found here, not by a fan's broken page).
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) {
          violations.push(`${msg.location().url}: ${msg.text()}`);
        }
      });
      await use();
      expect(violations, 'Content Security Policy violations in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
