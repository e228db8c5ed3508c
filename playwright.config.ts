import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch } from './e2e/chromium';
import { TURN_SECRET, TURN_URL, turnServerPath } from './e2e/turn';

const PORT = 8790;
const DATA_DIR = 'test-results/e2e-data';

export default defineConfig({
  testDir: 'e2e',
  // Writes the fake camera's picture (a generated student ID) before the browsers start.
  globalSetup: './e2e/global-setup.ts',
  // A whole test (two browsers, several screens) may take this long. On a slower 2-core VM (2026-11-27:
  // every browser step 2–3 times as slow as the day before, `Create page` 5 s) two offline tests ran past
  // 60 s while every one of their checks held; each check keeps its own timeout below.
  timeout: 120_000,
  // A check waits up to 20 s for the page to show what it expects (passing checks return as soon as it
  // does). 10 s ran out once on 2026-11-28's slower VM: the admin's document list answered in 1.8 s while the
  // other browser's test kept the server's text recognition busy, and the page showed it 11 s after loading.
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunch(['--disable-background-networking', '--disable-component-update']),
      },
    },
  ],
  // The production build served by the server itself, on a fresh database seeded with the demo accounts.
  webServer: {
    command: `rm -rf ${DATA_DIR} && node server/dist/cli/seed.js && node server/dist/main.js`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // Every test signs up fresh students from 127.0.0.1: the per-address sign-up limit is raised for the run.
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      AUTH_RATE_MULTIPLIER: '20',
      // The calls' ICE servers: coturn on loopback (e2e/turn.ts), where it is installed.
      ...(turnServerPath() ? { TURN_URLS: TURN_URL, TURN_SECRET } : {}),
    },
  },
});
