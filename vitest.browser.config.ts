import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * `npm run test:browser`: the tests that drive Debian's chromium through playwright-core. The chromium check runs
 * first, so a machine without it hears which package to install before a database is started.
 */
export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['test/support/browser-setup.ts', ...shared.globalSetup],
    include: ['test/browser/**/*.test.ts'],
  },
});
