import { expect, type Page } from '@playwright/test';

/** The laptop width the dashboard is held to: no action column off-screen at 1366 px. */
export const LAPTOP = { width: 1366, height: 768 };

/**
 * What does not fit among the page's tables: one that overflows its scrolling container (a sideways
 * scroll hiding a column) or the viewport, a button or link of a body row ending past the viewport, or
 * the page itself wider than the viewport; and how many body rows were checked.
 */
export function tableFitProblems(page: Page): Promise<{ problems: string[]; rows: number }> {
  return page.evaluate(() => {
    const problems: string[] = [];
    let rows = 0;
    const viewport = document.documentElement.clientWidth;
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const name = table.getAttribute('aria-label') ?? table.querySelector('caption')?.textContent ?? 'table';
      const box = table.parentElement;
      if (box && box.scrollWidth > box.clientWidth + 1)
        problems.push(`${name}: ${box.scrollWidth}px wide in a ${box.clientWidth}px container`);
      if (table.getBoundingClientRect().right > viewport + 1)
        problems.push(`${name}: ends at ${Math.round(table.getBoundingClientRect().right)}px`);
      for (const row of Array.from(table.querySelectorAll('tbody tr'))) {
        rows += 1;
        for (const action of Array.from(row.querySelectorAll('button, a'))) {
          const right = action.getBoundingClientRect().right;
          if (right > viewport + 1)
            problems.push(`${name}: "${(action.textContent ?? '').trim()}" ends at ${Math.round(right)}px`);
        }
      }
    }
    if (document.documentElement.scrollWidth > viewport + 1)
      problems.push(`page: ${document.documentElement.scrollWidth}px wide in a ${viewport}px viewport`);
    return { problems, rows };
  });
}

/**
 * Every `table` on the page fits (tableFitProblems finds nothing). Answers how many body rows it
 * checked, so a caller can insist the page had data.
 */
export async function expectTablesFit(page: Page, what: string): Promise<number> {
  const found = await tableFitProblems(page);
  expect(found.problems, `${what}: tables that do not fit at ${page.viewportSize()?.width}px`).toEqual([]);
  return found.rows;
}
