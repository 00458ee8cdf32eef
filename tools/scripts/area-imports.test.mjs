// Tests of the API areas' order: the listing script and the two ESLint rules (node --test).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, test } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { apiAreaOrder, coreTableWrites } from '../eslint/api-areas.mjs';
import { areaImportViolations } from './area-imports.mjs';

const APP = 'apps/api/src/app';

function fixture(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'areas-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, APP, file)), { recursive: true });
    fs.writeFileSync(path.join(root, APP, file), text);
  }
  return root;
}

test('lists an import of a higher area, a sibling and a root file; passes downward imports', () => {
  const root = fixture({
    'membership/members/members.service.ts': [
      "import { Links } from '../../referral/links/links.service';",
      "import { Db } from '../../platform/database/db';",
    ].join('\n'),
    'member/page/page.ts': "import { Profile } from '../../insight/profile/profile';",
    'platform/web/web.ts': "import { loadAppConfig } from '../../app-config';",
    'referral/links/links.service.ts':
      "import { Members } from '../../membership/members/members.service';",
    'referral/links/links.spec.ts': "import { Page } from '../../member/page/page';",
    'app.module.ts': "import { Page } from './member/page/page';",
  });
  const { violations } = areaImportViolations(root);
  assert.deepEqual(violations.map((v) => `${v.file} -> ${v.spec}`).sort(), [
    'member/page/page.ts -> ../../insight/profile/profile',
    'membership/members/members.service.ts -> ../../referral/links/links.service',
    'platform/web/web.ts -> ../../app-config',
  ]);
});

test('the repository itself has no import against the order', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const { violations, imports } = areaImportViolations(root);
  assert.ok(imports > 100, `expected the API's imports to be read, got ${imports}`);
  assert.deepEqual(violations, []);
});

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run('grove-api/area-order', apiAreaOrder, {
  valid: [
    { filename: `/r/${APP}/referral/a/a.ts`, code: "import { M } from '../../membership/m/m';" },
    { filename: `/r/${APP}/app.module.ts`, code: "import { I } from './integrations/i/i';" },
    {
      filename: `/r/${APP}/platform/a/a.spec.ts`,
      code: "import { I } from '../../integrations/i/i';",
    },
  ],
  invalid: [
    {
      filename: `/r/${APP}/membership/m/m.ts`,
      code: "import { L } from '../../referral/l/l';",
      errors: [{ messageId: 'order' }],
    },
    {
      filename: `/r/${APP}/platform/common/c.ts`,
      code: "export { A } from '../../app-config';",
      errors: [{ messageId: 'order' }],
    },
  ],
});

tester.run('grove-api/core-table-writes', coreTableWrites, {
  valid: [{ code: 'const sql = `SELECT id FROM members WHERE business_id = $1`;' }],
  invalid: [
    { code: 'const sql = `UPDATE members SET name = $2`;', errors: [{ messageId: 'write' }] },
    {
      code: "const sql = 'INSERT INTO price_changes (member_id) VALUES ($1)';",
      errors: [{ messageId: 'write' }],
    },
  ],
});
