/** The browser tests' chromium: the one `npm run bench` and `npm run screenshot` drive too (scripts/chromium.ts). */
export { CHROMIUM, chromiumProblem, launchChromium } from '../../scripts/chromium';
