// Resolves the `@grove/*` workspace aliases (tsconfig.base.json `paths`) in Jest's globalSetup,
// where the config's moduleNameMapper does not apply: the migrations it runs import
// `@grove/contracts` (EmailAddressRule checks stored addresses with the one email rule).
import Module from 'node:module';
import path from 'node:path';

// The list tools/jest/preset.cjs maps too (tsconfig.base.json `paths`), loaded as the config is.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { workspaceAliases } = require(
  path.resolve(__dirname, '../../../tools/workspace-aliases.cjs'),
) as {
  workspaceAliases: Record<string, string>;
};

type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return resolve.call(this, workspaceAliases[request] ?? request, ...rest);
};
