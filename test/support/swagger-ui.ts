/** Driving the reference page's Swagger UI in a browser test: it draws a long operation list only where the window is. */
import type { Page } from 'playwright-core';

/** Two animation frames: what the page drew after a scroll is on screen. */
const settle = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Scrolls down half a window at a time until `visit` answers true or the page ends. */
export async function scrollThrough(page: Page, visit: () => Promise<boolean | void>): Promise<void> {
  for (let top = 0; ; ) {
    await page.evaluate((y) => window.scrollTo(0, y), top);
    await settle(page);
    if (await visit()) return;
    const { height, bottom } = await page.evaluate(() => ({ height: window.innerHeight, bottom: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1 }));
    if (bottom) return;
    top += Math.floor(height / 2);
  }
}

/** Scrolls to one operation, opens it, presses Try it out and Execute, and answers the server's response as shown. */
export async function tryOperation(page: Page, tag: string, operationId: string): Promise<{ status: string; body: string }> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await scrollThrough(page, async () => (await operation.count()) > 0);
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('.try-out__btn').click();
  await operation.locator('.btn.execute').click();
  const response = operation.locator('.live-responses-table .response');
  await response.waitFor({ timeout: 10_000 });
  return {
    status: (await response.locator('.response-col_status').innerText()).trim(),
    body: await response.locator('.response-col_description').innerText(),
  };
}
