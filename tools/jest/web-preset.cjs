/**
 * Jest settings of every web project (the shell, the remotes, libs/web/*): the shared preset in
 * jsdom with the platform's fetch, Request, Response and streams (jest-fixed-jsdom, what MSW
 * needs), and the contract's fake API (`@grove/web-testing`: one MSW server, started for every
 * spec; a request no handler answers fails the spec).
 */
const path = require('node:path');
const preset = require('./preset.cjs');

module.exports = {
  ...preset,
  testEnvironment: path.join(__dirname, 'web-environment.cjs'),
  // openapi-msw and some of MSW's dependencies ship ES modules only (openapi-msw and until-async as .js, the
  // others as .mjs); SWC turns them into CommonJS like our sources.
  transform: {
    ...preset.transform,
    '^.+\\.mjs$': preset.transform['^.+\\.(t|j)sx?$'],
  },
  transformIgnorePatterns: ['/node_modules/(?!(openapi-msw|until-async)/).+\\.(c?js|json)$'],
  // A spec waits for states (asyncUtilTimeout in jest-setup.ts); 30 s is for a loaded machine, not a slow spec.
  testTimeout: 30_000,
  setupFilesAfterEnv: [path.join(__dirname, '../../libs/web/testing/src/lib/jest-setup.ts')],
};
