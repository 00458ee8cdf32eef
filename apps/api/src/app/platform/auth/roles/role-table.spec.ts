import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { STAFF_ROLES } from '@grove/contracts';
import { ROLE_TABLE, renderRoleTable, roleRuleFor } from './role-table';

const DOCS = path.resolve(__dirname, '../../../../../../../docs/rest-api.md');
const START = '<!-- role-table:start -->';
const END = '<!-- role-table:end -->';

/** A markdown table's cells, trimmed (prettier pads and aligns them: the cells are what count). */
const cellsOf = (markdown: string): string[][] =>
  markdown
    .split('\n')
    .filter((line) => line.trim().startsWith('|') && !/^\|[\s|:-]+\|$/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

describe('the role table (platform/auth/roles/role-table.ts)', () => {
  it('is rendered into docs/rest-api.md#roles (UPDATE_DOCS=1 rewrites it)', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const [before, rest] = docs.split(START);
    const [section, after] = rest.split(END);
    if (process.env['UPDATE_DOCS'] === '1') {
      writeFileSync(DOCS, `${before}${START}\n\n${renderRoleTable()}\n\n${END}${after}`);
      return;
    }
    expect(cellsOf(section)).toEqual(cellsOf(renderRoleTable()));
  });

  it('names each route once, with known roles, an owner always allowed', () => {
    const keys = ROLE_TABLE.map((rule) => `${rule.method} ${rule.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    for (const rule of ROLE_TABLE) {
      expect(rule.roles).toContain('owner');
      expect(rule.roles.every((role) => STAFF_ROLES.includes(role))).toBe(true);
      for (const role of Object.keys(rule.limits ?? {})) expect(rule.roles).toContain(role);
    }
  });

  it("lets a viewer only read (besides their own account and reporting a problem), and keeps billing, Mindbody's setup and the team to owners", () => {
    const ownThings = /^\/api\/(account|support\/issues)/;
    for (const rule of ROLE_TABLE.filter((row) => row.roles.includes('viewer')))
      expect(rule.method === 'GET' || ownThings.test(rule.path)).toBe(true);
    for (const rule of ROLE_TABLE.filter((row) =>
      /^\/api\/(billing|team|mindbody\/)/.test(row.path),
    ))
      expect(rule.roles).toEqual(['owner']);
  });

  it('finds a row by an Express path or a HEAD request', () => {
    expect(roleRuleFor('patch', '/api/members/:id')?.limits).toEqual({
      front_desk: 'price-unchanged',
    });
    expect(roleRuleFor('HEAD', '/api/members')?.method).toBe('GET');
    expect(roleRuleFor('GET', '/api/nowhere')).toBeUndefined();
  });
});
