// Tests of rewrite-spec-refs.mjs and check-doc-refs.mjs: node --test tools/scripts/doc-refs.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anchorsOf, checkRepository, githubSlug } from './check-doc-refs.mjs';
import { REFINE, SECTIONS, rewriteText } from './rewrite-spec-refs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('rewrites every form of reference in use into a docs/ anchor', () => {
  const cases = [
    [
      '/** SPEC §5: letters and spaces only. */',
      '/** docs/product.md#validation: letters and spaces only. */',
    ],
    ['(SPEC.md §2 Contact page)', '(docs/product.md#contact-page Contact page)'],
    ['(DESIGN §6)', '(docs/architecture.md#mindbody)'],
    ['(DESIGN.md §3)', '(docs/architecture.md#database)'],
    ['pg-boss (DESIGN.md §3): every', 'pg-boss (docs/architecture.md#job-path): every'],
    ["SPEC §5's pattern.", "docs/product.md#validation's pattern."],
    [
      'SPEC §5/§9: non-negative',
      'docs/product.md#validation, docs/product.md#constants: non-negative',
    ],
    [
      '(SPEC §9, DESIGN §6), cents',
      '(docs/product.md#constants, docs/architecture.md#mindbody), cents',
    ],
    ['(SPEC §2–§4)', '(docs/product.md#screens, docs/product.md#entities, docs/product.md#states)'],
    ['SPEC §5 signup rules', 'docs/product.md#validation-signup signup rules'],
    ['SPEC §4 stage 2): queues', 'docs/product.md#mindbody-stages stage 2): queues'],
    // Words after ")" or in the next clause do not pick the subsection.
    ["(SPEC §4)', async () => {", "(docs/product.md#states)', async () => {"],
    ['Public top bar (SPEC §2): logo', 'Public top bar (docs/product.md#public-pages): logo'],
  ];
  for (const [before, after] of cases) assert.equal(rewriteText(before).text, after, before);
});

test('a bare §n continues the document named before it, on the line or earlier in the file', () => {
  const { text, count } = rewriteText('verbatim from SPEC.md (§2, §5, §8).\n// §5 signup form\n');
  assert.equal(
    text,
    'verbatim from docs/product.md (docs/product.md#screens, docs/product.md#validation, docs/product.md#errors).\n' +
      '// docs/product.md#validation-signup signup form\n',
  );
  assert.equal(count, 5);
  const lone = rewriteText('law § 5 of something');
  assert.equal(lone.count, 0);
  assert.equal(lone.text, 'law § 5 of something');
});

test('is idempotent', () => {
  const once = rewriteText('SPEC §5/§9 and DESIGN.md §5; see ../shared/SPEC.md').text;
  assert.doesNotMatch(once, /§|SPEC|DESIGN|\.\.\/shared/);
  assert.deepEqual(rewriteText(once), { text: once, count: 0, unresolved: [] });
});

test('every anchor the mapping can write exists in docs/', () => {
  const targets = new Set(Object.values(SECTIONS).flatMap((sections) => Object.values(sections)));
  for (const [key, rules] of Object.entries(REFINE)) {
    const file = SECTIONS[key.split(' ')[0]][key.split(' ')[1]].split('#')[0];
    for (const [, anchor] of rules) targets.add(`${file}#${anchor}`);
  }
  for (const target of targets) {
    const [file, anchor] = target.split('#');
    assert.ok(anchorsOf(fs.readFileSync(path.join(ROOT, file), 'utf8')).has(anchor), target);
  }
});

test('anchors: explicit ids and GitHub heading slugs, not headings inside code fences', () => {
  assert.equal(githubSlug('5. Validation rules'), '5-validation-rules');
  const anchors = anchorsOf(
    '<a id="calls"></a>\n## 7. The calls it makes\n```\n# not a heading\n```\n',
  );
  assert.ok(anchors.has('calls'));
  assert.ok(anchors.has('7-the-calls-it-makes'));
  assert.ok(!anchors.has('not-a-heading'));
});

test('the check refuses out-of-repo references and missing anchors, and passes a clean tree', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-refs-'));
  try {
    const write = (file, text) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('docs/product.md', '<a id="validation"></a>\n## Validation\n');
    write('docs/decisions/x.md', 'Was SPEC §5 (kept as history).\n');
    write('apps/a.ts', '/** docs/product.md#validation */\n');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '.'], { cwd: dir });
    assert.deepEqual(checkRepository(dir), []);

    write(
      'apps/b.ts',
      '/** SPEC §5 */\n// see ../shared/DESIGN.md\n/** docs/product.md#nowhere, docs/missing.md */\n',
    );
    write('apps/c.ts', '/** docs/product.md#validation/§9 */\n');
    execFileSync('git', ['add', '.'], { cwd: dir });
    const problems = checkRepository(dir);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems.join('\n'), /apps\/b\.ts:1: points outside/);
    assert.match(problems.join('\n'), /apps\/b\.ts:2: points outside/);
    assert.match(problems.join('\n'), /docs\/product\.md#nowhere names an anchor/);
    assert.match(problems.join('\n'), /docs\/missing\.md names a file that does not exist/);
    assert.match(problems.join('\n'), /apps\/c\.ts:1: a bare §/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the check refuses a repository path cited in docs that does not exist, not a pattern or a decision', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-refs-'));
  try {
    const write = (file, text) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('apps/api/src/app/membership/pricing/price.ts', '');
    write(
      'docs/architecture.md',
      'The price: `apps/api/src/app/membership/pricing/price.ts` (and `apps/<name>/src`, `apps/api/{a,b}`).\n',
    );
    write('docs/decisions/old.md', 'Was `apps/api/src/app/database/counting-branch.ts`.\n');
    write('README.md', 'See `apps/api/src/app/members/member-row.ts`.\n');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '.'], { cwd: dir });
    assert.deepEqual(checkRepository(dir), [
      'README.md:1: `apps/api/src/app/members/member-row.ts` names a path that does not exist',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
