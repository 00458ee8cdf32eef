// Bundles the NestJS API into dist/apps/api/main.js (see tools/webpack/node-app.cjs).
const { nodeAppConfig } = require('../../tools/webpack/node-app.cjs');

module.exports = nodeAppConfig({
  name: 'api',
  // Optional Nest peers that are never used; keep webpack quiet about them.
  ignoreWarnings: [
    /Critical dependency/,
    /Can't resolve '(@nestjs\/(microservices|websockets)|class-transformer\/storage)/,
  ],
});
