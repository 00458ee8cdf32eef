#!/usr/bin/env node
// `npm run dev`: the development loop. Builds once, then keeps every web app and the API
// rebuilding on save (webpack --watch) while Grove runs on http://localhost:3000; the API
// restarts when its bundle changes and a browser reload picks up web changes.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { binPath } from './bin.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const nx = binPath('nx');
const webpack = binPath('webpack-cli');
const apps = ['shell', 'marketing', 'dashboard', 'integrations', 'referral', 'api'];

const first = spawnSync(
  process.execPath,
  [nx, 'run-many', '-t', 'build', `--projects=${apps.join(',')}`, '--outputStyle=static'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false' },
  },
);
if (first.status !== 0) process.exit(first.status ?? 1);

const children = apps.map((app) =>
  spawn(
    process.execPath,
    [
      webpack,
      '--config',
      `apps/${app}/webpack.config.js`,
      '--watch',
      '--mode',
      app === 'api' ? 'production' : 'development',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  ),
);
children.push(
  spawn(process.execPath, [path.join(root, 'tools/scripts/start.mjs'), '--no-build', '--watch'], {
    cwd: root,
    stdio: 'inherit',
  }),
);

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 1500);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
