/**
 * The browser of `npm run test:browser`, of the bench's portal scenario and of `npm run screenshot`: Debian's chromium,
 * driven by playwright-core, which downloads no browser.
 * playwright-core is pinned to a version that speaks this chromium's protocol (.ci/run installs a recent enough one).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** The oldest chromium whose protocol playwright-core 1.64 speaks. */
const OLDEST_MAJOR = 156;

/** Why the browser tests cannot run here, with the apt command that fixes it; undefined when they can. */
export function chromiumProblem(): string | undefined {
  if (!existsSync(CHROMIUM)) {
    return `${CHROMIUM} not found: the browser tests run in Debian's chromium; install it with \`apt-get install chromium\` (npm test runs without it)`;
  }
  let version: string;
  try {
    version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 }).trim();
  } catch (err) {
    return `${CHROMIUM} --version failed (${(err as Error).message.split('\n')[0]}): reinstall it with \`apt-get install --reinstall chromium\``;
  }
  const major = Number(/(\d+)\./.exec(version)?.[1]);
  if (!(major >= OLDEST_MAJOR)) {
    return `${CHROMIUM} is ${version}; playwright-core needs chromium ${OLDEST_MAJOR} or newer: \`apt-get update && apt-get install chromium\``;
  }
  return undefined;
}

/** A headless chromium that reaches nothing on its own (no updates, sync or default apps). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-default-apps', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}
