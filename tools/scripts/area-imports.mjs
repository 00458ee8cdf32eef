#!/usr/bin/env node
// Lists every import in the API's code (specs exempt) that runs against the areas' order
// (docs/architecture.md#api-areas): an area importing a sibling, an area above it, or a root file.
// Prints one line per import and exits 1 when there is one; prints a summary otherwise.
//
//   node tools/scripts/area-imports.mjs [--root <dir>]
import fs from 'node:fs';
import path from 'node:path';
import { API_APP_DIR, areaOf, areaViolation, isSpec } from '../eslint/api-areas.mjs';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']+)'/gm;

/** Every import against the order under `root`: `{ file, spec, why }` (paths relative to the app dir). */
export function areaImportViolations(root) {
  const appDir = path.join(root, API_APP_DIR);
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : entry.name.endsWith('.ts') ? [full] : [];
    });
  const violations = [];
  let imports = 0;
  for (const full of walk(appDir)) {
    const file = path.relative(appDir, full).split(path.sep).join('/');
    if (isSpec(file) || areaOf(file) === null) continue;
    for (const match of fs.readFileSync(full, 'utf8').matchAll(IMPORT)) {
      imports += 1;
      const target = path.posix.relative(
        appDir.split(path.sep).join('/'),
        path.posix.resolve(path.posix.dirname(full.split(path.sep).join('/')), match[1]),
      );
      const why = areaViolation(file, target);
      if (why) violations.push({ file, spec: match[1], why });
    }
  }
  return { violations, imports };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1]) : process.cwd();
  const { violations, imports } = areaImportViolations(root);
  for (const v of violations) console.log(`${API_APP_DIR}/${v.file}: '${v.spec}': ${v.why}`);
  console.log(
    `${violations.length} of ${imports} relative imports in the areas run against the order`,
  );
  process.exitCode = violations.length > 0 ? 1 : 0;
}
