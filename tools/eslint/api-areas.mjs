// The API's areas and their dependency order (docs/architecture.md#api-areas), stated once and
// used by the ESLint rules below and by tools/scripts/area-imports.mjs (a listing of imports that
// run against the order).
import path from 'node:path';

/** apps/api/src/app, relative to the repository root. */
export const API_APP_DIR = 'apps/api/src/app';

/**
 * Each area's level: an area imports only areas of a lower level (never a sibling, never one
 * above, never a root file such as app-config.ts or database-schema.ts).
 */
export const AREA_LEVELS = {
  platform: 0,
  owner: 1,
  site: 1,
  membership: 1,
  referral: 2,
  member: 3,
  insight: 3,
  integrations: 4,
};

/** The area of `file` (a path relative to API_APP_DIR), or null for a root file. */
export function areaOf(relative) {
  const [first, ...rest] = relative.split('/');
  return rest.length > 0 && first in AREA_LEVELS ? first : null;
}

/** True for specs, which may import across areas to set up their scene. */
export const isSpec = (file) => /\.(spec|integration-spec)\.ts$/.test(file);

/**
 * Why importing `target` from `file` runs against the order, or null when it may.
 * @param file the importing file, relative to API_APP_DIR
 * @param target the imported file or folder (resolved), relative to API_APP_DIR
 */
export function areaViolation(file, target) {
  const from = areaOf(file);
  if (from === null || target.startsWith('..')) return null; // root files and outside imports
  const to = areaOf(target);
  if (to === from) return null;
  if (to === null)
    return `area '${from}' imports the root file '${target}': the root assembles the areas, never the other way round`;
  if (AREA_LEVELS[to] >= AREA_LEVELS[from])
    return `area '${from}' imports area '${to}', which is not below it: announce with an event (membership/events) or move the code down`;
  return null;
}

/** `grove/api-area-order`: an area imports only areas below it (specs exempt). */
export const apiAreaOrder = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { order: '{{why}} (docs/architecture.md#api-areas).' },
  },
  create(context) {
    const file = context.filename.split(path.sep).join('/');
    const at = file.indexOf(`/${API_APP_DIR}/`);
    if (at < 0 || isSpec(file)) return {};
    const appDir = file.slice(0, at + API_APP_DIR.length + 1);
    const relative = path.posix.relative(appDir, file);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.relative(
        appDir,
        path.posix.resolve(path.posix.dirname(file), spec),
      );
      const why = areaViolation(relative, target);
      if (why) context.report({ node, messageId: 'order', data: { why } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportEqualsDeclaration: (node) =>
        check({ ...node, source: node.moduleReference?.expression }),
    };
  },
};

/** SQL that writes one of the core tables: INSERT INTO / UPDATE / DELETE FROM members or price_changes. */
export const CORE_TABLE_WRITE =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(members|price_changes)\b/i;

/**
 * `grove/core-table-writes`: SQL text writing `members` or `price_changes` appears only in
 * membership/ (and, by the config's `ignores`, Mindbody's bulk writes, migrations and the demo
 * seed): docs/architecture.md#api-areas.
 */
export const coreTableWrites = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      write:
        "SQL writes '{{table}}' outside membership/: call a membership service or repository instead (docs/architecture.md#api-areas).",
    },
  },
  create(context) {
    const check = (node, text) => {
      const match = CORE_TABLE_WRITE.exec(text);
      if (match) context.report({ node, messageId: 'write', data: { table: match[1] } });
    };
    return {
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      TemplateLiteral: (node) =>
        check(node, node.quasis.map((q) => q.value.cooked ?? '').join(' ')),
    };
  },
};
