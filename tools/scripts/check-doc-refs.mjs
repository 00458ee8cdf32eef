#!/usr/bin/env node
// Keeps Grove's references inside the repository:
//  1. no tracked file (outside docs/decisions/ and the two scripts below) points at the old
//     out-of-repo documents: `../shared/`, "SPEC §n", "SPEC.md §n", "DESIGN §n", "DESIGN.md §n";
//  2. every `docs/<file>.md#<anchor>` cited anywhere, and every relative `<file>.md#<anchor>` link
//     inside docs/, names a file that exists and an anchor that exists in it (an explicit
//     `<a id="…">` or a heading's GitHub slug);
//  3. every repository path cited in code spans of the README, CONTRIBUTING and docs/ (outside
//     docs/decisions/, which keep the paths of their day) — `apps/…`, `libs/…`, `tools/…`,
//     `deploy/…`, `docs/…` — names a file or folder that exists (a span with a placeholder such
//     as `<name>`, `*` or `{a,b}` is a pattern, not a path, and is skipped).
// Prints each problem as file:line and exits 1 when there is one.
//
//   node tools/scripts/check-doc-refs.mjs [--root <dir>]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const OLD_REFERENCE = /\.\.\/shared\/|\b(SPEC|DESIGN)(\.md)?\s?§/;
/** Files that quote old references on purpose: the decisions' history, these scripts and their test. */
const SCRIPTS = /^tools\/scripts\/(rewrite-spec-refs|check-doc-refs|doc-refs\.test)\.mjs$/;
const EXEMPT = [/^docs\/decisions\//, SCRIPTS];
/** `docs/product.md#validation`, `docs/decisions/x.md`, as cited from anywhere. */
const DOC_CITATION = /\bdocs\/([\w./-]+?\.md)(?:#([\w-]+))?/g;
/** A relative markdown link inside docs/: `](product.md#calls)`, `](decisions/x.md)`. */
const RELATIVE_LINK = /\]\((?!https?:|\/|#)([\w./-]+?\.md)(?:#([\w-]+))?\)/g;

/** A repository path in a markdown code span: `apps/api/src/app/…`, `libs/…`, … (stops at `:`/`#`). */
const PATH_SPAN = /`((?:apps|libs|tools|deploy|docs)\/[^`\s:#]*)[^`]*`/g;
/** The markdown files whose cited paths must exist. */
const PATH_CHECKED = (file) =>
  /^(README|CONTRIBUTING)\.md$/.test(file) ||
  (/^docs\/.*\.md$/.test(file) && !file.startsWith('docs/decisions/'));

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a markdown text defines: explicit `<a id>`/`id="…"` and heading slugs. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  for (const match of markdown.matchAll(/\bid="([^"]+)"/g)) anchors.add(match[1]);
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(githubSlug(heading[1]));
  }
  return anchors;
}

export function checkRepository(root) {
  const files = execFileSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
  const problems = [];
  const anchorCache = new Map();
  const anchorsIn = (docPath) => {
    if (!anchorCache.has(docPath)) {
      const full = path.join(root, docPath);
      anchorCache.set(
        docPath,
        fs.existsSync(full) ? anchorsOf(fs.readFileSync(full, 'utf8')) : null,
      );
    }
    return anchorCache.get(docPath);
  };
  const checkTarget = (where, docPath, anchor, cited) => {
    const anchors = anchorsIn(docPath);
    if (anchors === null)
      problems.push(`${where}: ${cited} names a file that does not exist (${docPath})`);
    else if (anchor && !anchors.has(anchor))
      problems.push(`${where}: ${cited} names an anchor that ${docPath} does not define`);
  };

  for (const file of files) {
    const full = path.join(root, file);
    let buffer;
    try {
      buffer = fs.readFileSync(full);
    } catch {
      continue;
    }
    if (buffer.includes(0)) continue;
    const text = buffer.toString('utf8');
    const exempt = EXEMPT.some((pattern) => pattern.test(file));
    text.split('\n').forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      if (!exempt && OLD_REFERENCE.test(line))
        problems.push(`${where}: points outside the repository: ${line.trim()}`);
      else if (!exempt && /\bdocs\/[\w./-]+\.md/.test(line) && /§\s?\d/.test(line))
        problems.push(`${where}: a bare § section number beside a docs/ reference: ${line.trim()}`);
      if (SCRIPTS.test(file)) return;
      for (const match of line.matchAll(DOC_CITATION))
        checkTarget(where, `docs/${match[1]}`, match[2], match[0]);
      if (PATH_CHECKED(file)) {
        for (const match of line.matchAll(PATH_SPAN)) {
          const cited = match[1].replace(/[.,;)]+$/, '');
          if (/[<>*{}[\]…]/.test(cited)) continue;
          if (!fs.existsSync(path.join(root, cited)))
            problems.push(`${where}: \`${cited}\` names a path that does not exist`);
        }
      }
      if (file.startsWith('docs/') && file.endsWith('.md')) {
        for (const match of line.matchAll(RELATIVE_LINK)) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
          checkTarget(where, target, match[2], match[0].slice(2, -1));
        }
      }
    });
  }
  return problems;
}

if (process.argv[1]?.endsWith('check-doc-refs.mjs')) {
  const rootIndex = process.argv.indexOf('--root');
  const root = path.resolve(rootIndex >= 0 ? process.argv[rootIndex + 1] : process.cwd());
  const problems = checkRepository(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} reference problem(s). Old SPEC/DESIGN references: node tools/scripts/rewrite-spec-refs.mjs`,
    );
    process.exit(1);
  }
  console.log(
    'doc references: all inside the repository, every docs/…#anchor and cited path exists',
  );
}
