import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REMOTE_NAMES } from '@grove/contracts';
import { ENV_SECTIONS, remoteUrlVariable } from './app-config';
import { declaredVariables } from './platform/common/config/env-section';

const root = path.resolve(__dirname, '../../../..');

/** docs/configuration.md's rows (the README links it): the variables each row names and the `code` spans of its Default cell. */
function readmeRows(): { names: string[]; defaults: string[] }[] {
  const readme = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
  const section = readme.split(/^## Variables$/m)[1].split(/^## /m)[0];
  const spans = (cell: string) => [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1]);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, names, defaults] = line.split('|');
      return {
        names: spans(names).filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name)),
        defaults: spans(defaults),
      };
    });
}

/** Variables the README documents that the API does not read: `npm start`, the e2e run and the sandbox read them. */
const TOOLING_VARIABLES: Record<string, string> = {
  GROVE_DB_PORT: 'tools/scripts/start.mjs',
  GROVE_STATE_DIR: 'tools/scripts/start.mjs',
  CHROMIUM_PATH: 'apps/e2e/playwright.config.ts',
  MINDBODY_SANDBOX_CLIENTS: 'tools/scripts/start.mjs',
  GROVE_SANDBOX_PORT: 'tools/scripts/start.mjs',
  GROVE_MAIL_VIEWER: 'tools/scripts/start.mjs',
  GROVE_MAIL_SMTP_PORT: 'tools/scripts/start.mjs',
  GROVE_MAIL_WEB_PORT: 'tools/scripts/start.mjs',
  GROVE_RAW_LOGS: 'tools/scripts/start.mjs',
};

const declared = ENV_SECTIONS.flatMap(declaredVariables);
const remoteUrls = REMOTE_NAMES.map(remoteUrlVariable);

describe("README's Configuration table", () => {
  it('has a row for every variable the API declares', () => {
    const documented = new Set(readmeRows().flatMap((row) => row.names));
    const missing = [...declared.map((variable) => variable.name), ...remoteUrls].filter(
      (name) => !documented.has(name),
    );
    expect(missing).toEqual([]);
  });

  it('names only variables the API declares or the tooling reads', () => {
    const known = new Set([...declared.map((variable) => variable.name), ...remoteUrls]);
    const unknown = readmeRows()
      .flatMap((row) => row.names)
      .filter((name) => !known.has(name))
      .filter(
        (name) =>
          !(name in TOOLING_VARIABLES) ||
          !readFileSync(path.join(root, TOOLING_VARIABLES[name]), 'utf8').includes(name),
      );
    expect(unknown).toEqual([]);
  });

  it("gives each declared default (a row naming several variables: the n-th `code` span is the n-th variable's)", () => {
    const rows = readmeRows();
    const disagreements = declared
      .filter((variable) => variable.defaultValue !== undefined)
      .flatMap(({ name, defaultValue }) => {
        const row = rows.find((candidate) => candidate.names.includes(name));
        if (!row) return [`${name}: no row`];
        const expected = String(defaultValue);
        const agrees =
          row.names.length > 1
            ? row.defaults[row.names.indexOf(name)] === expected
            : row.defaults.includes(expected) ||
              // An empty default is written as a word ('empty').
              (expected === '' && row.defaults.length === 0);
        return agrees
          ? []
          : [
              `${name}: declared ${JSON.stringify(expected)}, README ${JSON.stringify(row.defaults)}`,
            ];
      });
    expect(disagreements).toEqual([]);
  });

  it('sees every section (the check cannot pass on an empty declaration list)', () => {
    expect(declared.map((variable) => variable.name)).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'THROTTLE_CONTACT_LIMIT',
        'MINDBODY_API_KEY',
        'JIRA_RETRY_LIMIT',
      ]),
    );
    expect(declared.find((variable) => variable.name === 'ALTCHA_COST')?.defaultValue).toBe(5000);
  });
});
