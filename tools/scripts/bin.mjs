// Paths of the command-line tools the scripts run, read from each package's `bin` field so a
// package that moves its binary (nx 23 moved it to dist/bin) does not break `npm start`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Absolute path of `command` from npm package `pkg`. */
export function binPath(pkg, command = pkg) {
  // A package whose `exports` hides its package.json (maildev) is found on the resolution paths.
  const manifestPath =
    (require.resolve.paths(pkg) ?? [])
      .map((dir) => path.join(dir, pkg, 'package.json'))
      .find((candidate) => fs.existsSync(candidate)) ?? require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifestPath);
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin[command]);
}
