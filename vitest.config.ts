import { configDefaults, defineConfig } from 'vitest/config';

/** What every run shares; test/browser/ has a command of its own (vitest.browser.config.ts) since it needs chromium. */
export const shared = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
  pool: 'forks',
  env: { VALIDATE_RESPONSES: '1', LOG_LEVEL: 'warn' },
} as const;

export default defineConfig({
  test: {
    ...shared,
    globalSetup: [...shared.globalSetup],
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/browser/**'],
  },
});
