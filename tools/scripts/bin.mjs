// Paths of the command-line tools the scripts run, read from each package's `bin` field so a
// package that moves its binary (nx 23 moved it to dist/bin) does not break `npm start`.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Absolute path of `command` from npm package `pkg`. */
export function binPath(pkg, command = pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifestPath);
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin[command]);
}
