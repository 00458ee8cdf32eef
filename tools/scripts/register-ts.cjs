/**
 * Lets `node -r ./tools/scripts/register-ts.cjs file.ts` run the workspace's TypeScript: SWC
 * compiles it to CommonJS with decorator metadata (what NestJS and @nestjs/swagger read), and the
 * `@grove/*` aliases resolve to library sources (tools/workspace-aliases.cjs). Used by
 * `npm run api:contract` to print the API's OpenAPI document without building the API.
 */
const Module = require('node:module');
const { register } = require('@swc-node/register/register');
const { workspaceAliases } = require('../workspace-aliases.cjs');

register({
  module: 'commonjs',
  target: 'es2022',
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  jsx: 4, // ts.JsxEmit.ReactJSX: the automatic runtime (a string here means the classic one)
});

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  return resolve.call(this, workspaceAliases[request] ?? request, ...rest);
};
