import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { groveServerEnv } from './src/grove-env';

// Journeys run in Debian's Chromium against a production build served by `npm start`'s own
// script on a throwaway embedded database (DESIGN.md §7). The build happens before (npm run test:e2e).
const port = Number(process.env.E2E_PORT ?? 3311);
// Workers inherit the environment, so every process agrees on one state folder.
if (!process.env.GROVE_E2E_STATE) {
  process.env.GROVE_E2E_STATE = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-e2e-'));
  // mkdtemp makes a 0700 folder; the embedded PostgreSQL (user postgres) must enter it.
  fs.chmodSync(process.env.GROVE_E2E_STATE, 0o755);
}
const stateDir = process.env.GROVE_E2E_STATE;

export default defineConfig({
  testDir: './src',
  globalTeardown: './src/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: '../../dist/playwright-report' }]],
  outputDir: '../../dist/test-results',
  use: {
    baseURL: `http://localhost:${port}`,
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
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node tools/scripts/start.mjs --no-build',
    cwd: path.resolve(__dirname, '../..'),
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    // A small Mindbody sandbox keeps the Mindbody journey quick (tools/scripts/start.mjs starts it).
    env: groveServerEnv(port, stateDir),
  },
});
