/**
 * Shared Jest settings: SWC transforms TypeScript/TSX (with decorator metadata for NestJS) and the
 * workspace path aliases resolve to library sources, as in tsconfig.base.json.
 */
const path = require('node:path');
const { workspaceAliases } = require('../workspace-aliases.cjs');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true, decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            react: { runtime: 'automatic' },
          },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // otplib's default plugins depend on ESM-only packages (@scure/base, @noble/hashes 2, the latter
  // nested under @otplib/plugin-crypto-noble): SWC compiles those to CommonJS like our sources.
  // Node itself loads them with require(esm) at run time.
  transformIgnorePatterns: [
    '/node_modules/(?!(@scure/|@noble/|@otplib/plugin-crypto-noble/node_modules/@noble/)).+\\.(c?js|json)$',
  ],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper: {
    ...Object.fromEntries(
      Object.entries(workspaceAliases).map(([name, file]) => [`^${name}$`, file]),
    ),
    '\\.css$': path.join(__dirname, 'style-mock.cjs'),
  },
};
