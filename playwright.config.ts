import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_PASSWORD } from './web/e2e/constants';

/** The browser tests drive the built app, served by the real server on a fresh embedded database. */
const port = Number(process.env.E2E_PORT ?? 3199);
// The server's embedded database (about 700 MB once seeded) and the demo users' signed-in sessions, saved once
// by the `sessions` project (web/e2e/sessions.setup.ts). Made here in the runner so the workers, which load this
// file again, inherit the same folders instead of making empty ones; web/e2e/teardown.ts removes both.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-e2e-'));
const dataDir: string = process.env.E2E_DATA_DIR;
process.env.E2E_SESSIONS_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-e2e-sessions-'));

export default defineConfig({
  testDir: 'web/e2e',
  fullyParallel: false,
  workers: 1,
  // One retry on CI: a test that needs it is still reported as flaky, so it is seen and mended.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  globalTeardown: './web/e2e/teardown.ts',
  projects: [
    { name: 'sessions', testMatch: /sessions\.setup\.ts$/ },
    { name: 'browser', dependencies: ['sessions'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 900 },
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
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
  webServer: {
    command: 'npx tsx server/src/main.ts',
    url: `http://127.0.0.1:${port}/login`,
    // The first start seeds the demo data: ~40 s on an idle machine, several times that on a busy one.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_PASSWORD: E2E_PASSWORD,
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      // One address plays every user here, far faster than people (the lockout spec alone signs in 11 times
      // in seconds): the per-address limits would refuse it. rate-limits.spec.ts plays the refusal instead.
      RATE_LIMITS: 'off',
    },
  },
});
