import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { groveServer, sharedConfig, workspaceRoot } from './playwright.config';

// The public-site and trees journeys again, with `marketing` and `dashboard` each served from an
// origin of its own by a static server that sends what README "Deploying a remote" asks of a
// remote's host (apps/e2e/static-remote-server.mjs), and Grove pointed at them with
// REMOTE_MARKETING_URL / REMOTE_DASHBOARD_URL. Runs after playwright.config.ts in npm run test:e2e.
const remotesPort = Number(process.env.E2E_REMOTES_PORT ?? 3312);

/** The origin each remote is served from in this run. */
export const REMOTE_ORIGINS = {
  marketing: `http://127.0.0.1:${remotesPort}`,
  dashboard: `http://127.0.0.1:${remotesPort + 1}`,
} as const;

const staticRemote = (name: keyof typeof REMOTE_ORIGINS) => ({
  command: `node apps/e2e/static-remote-server.mjs dist/apps/${name} ${new URL(REMOTE_ORIGINS[name]).port}`,
  cwd: workspaceRoot,
  url: `${REMOTE_ORIGINS[name]}/mf-manifest.json`,
  timeout: 10_000,
  reuseExistingServer: false,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  ...sharedConfig,
  testMatch: ['public-site.spec.ts', 'trees.spec.ts', 'cross-origin.spec.ts'],
  // The axe checks read the same pages whichever origin their scripts came from: once is enough.
  grepInvert: /accessibility: \/\S* has no serious/,
  outputDir: path.join(workspaceRoot, 'dist/test-results-cross-origin'),
  reporter: process.env.CI
    ? [['list']]
    : [
        ['list'],
        [
          'html',
          {
            open: 'never',
            outputFolder: path.join(workspaceRoot, 'dist/playwright-report-cross-origin'),
          },
        ],
      ],
  webServer: [
    staticRemote('marketing'),
    staticRemote('dashboard'),
    groveServer({
      REMOTE_MARKETING_URL: `${REMOTE_ORIGINS.marketing}/mf-manifest.json`,
      REMOTE_DASHBOARD_URL: `${REMOTE_ORIGINS.dashboard}/mf-manifest.json`,
    }),
  ],
});
