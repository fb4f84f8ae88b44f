import { defineConfig } from '@playwright/test';

/**
 * Browser journeys through the Scheduler. The global setup builds the app (once, under the shared
 * build lock); each worker starts `next start` on PGlite in a temp DATA_DIR with fake platforms.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : [['list']],
  use: {
    browserName: 'chromium',
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
    viewport: { width: 1280, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
