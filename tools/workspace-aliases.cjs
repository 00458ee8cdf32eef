/**
 * The `@grove/*` import aliases, read from tsconfig.base.json `paths` so webpack, Jest and
 * TypeScript resolve workspace libraries from one list.
 */
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { paths } = require(path.join(root, 'tsconfig.base.json')).compilerOptions;

/** `{ '@grove/x': '/abs/libs/.../src/index.ts' }` */
const workspaceAliases = Object.fromEntries(
  Object.entries(paths).map(([name, [target]]) => [name, path.join(root, target)]),
);

module.exports = { workspaceAliases, workspaceRoot: root };
