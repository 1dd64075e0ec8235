/**
 * What every browser test asks of a page besides its own journey: the browser did not complain (script errors,
 * console errors and warnings, Content-Security-Policy refusals) and axe-core finds nothing serious or critical at
 * WCAG 2.1 AA.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Records every Content-Security-Policy violation of every document of the context, whatever the page's own policy
 * (an init script runs before the page's scripts, and where the page may run none).
 */
function recordViolations(): void {
  const seen: string[] = [];
  (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
  document.addEventListener('securitypolicyviolation', (event) => {
    seen.push(`${event.violatedDirective} refused ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber}) ${event.sample}`);
  });
}

/** The CSP violations the page's document has seen so far. */
export const violationsOf = (p: Page): Promise<string[]> => p.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

/**
 * Every complaint of the browser in `context`, pushed to the returned list: script errors, console errors and
 * warnings (context-wide, so a popup's first document is heard from its start), and CSP violations as pages record them.
 */
export async function watchComplaints(context: BrowserContext): Promise<string[]> {
  const complaints: string[] = [];
  await context.addInitScript(recordViolations);
  context.on('weberror', (error) => complaints.push(`page error: ${error.error().message}`));
  context.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') complaints.push(`console ${message.type()} on ${message.page()?.url()}: ${message.text()} (${message.location().url})`);
  });
  return complaints;
}

/** What axe-core finds on the page at WCAG 2.1 AA, serious or critical (rule and the elements it names). */
export async function accessibilityProblems(p: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page: p }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
