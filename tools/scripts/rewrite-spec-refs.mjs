#!/usr/bin/env node
// Rewrites every reference to the old out-of-repo documents ("SPEC §5", "SPEC.md §5",
// "DESIGN §6", "DESIGN.md §6", a bare "§4" continuing one of them, "../shared/SPEC.md") in the
// tracked files of this repository into a reference to the docs inside it, e.g.
// "SPEC §5 signup rules" → "docs/product.md#validation-signup signup rules".
//
//   node tools/scripts/rewrite-spec-refs.mjs            rewrite in place, print counts per file
//   node tools/scripts/rewrite-spec-refs.mjs --dry-run  print what it would rewrite, write nothing
//   node tools/scripts/rewrite-spec-refs.mjs --verbose  also print every rewritten line
//   node tools/scripts/rewrite-spec-refs.mjs --root <dir>  work on another checkout
//
// Idempotent: what it writes contains no "§" and no SPEC/DESIGN file name, so a second run
// rewrites nothing. Files under docs/, this script, tools/scripts/check-doc-refs.mjs and their
// test are left alone. Every anchor it writes exists in docs/ (tools/scripts/check-doc-refs.mjs checks them).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const PRODUCT = 'docs/product.md';
const ARCHITECTURE = 'docs/architecture.md';

/** Section number → anchor, per document; a refinement below may pick a finer anchor. */
export const SECTIONS = {
  SPEC: {
    1: `${PRODUCT}#overview`,
    2: `${PRODUCT}#screens`,
    3: `${PRODUCT}#entities`,
    4: `${PRODUCT}#states`,
    5: `${PRODUCT}#validation`,
    6: `${PRODUCT}#roles`,
    7: `${PRODUCT}#calls`,
    8: `${PRODUCT}#errors`,
    9: `${PRODUCT}#constants`,
  },
  DESIGN: {
    1: `${ARCHITECTURE}#shape`,
    2: `${ARCHITECTURE}#build-and-tests`,
    3: `${ARCHITECTURE}#database`,
    4: `${ARCHITECTURE}#request-path`,
    5: `${ARCHITECTURE}#front-end`,
    6: `${ARCHITECTURE}#mindbody`,
    7: `${ARCHITECTURE}#build-and-tests`,
  },
};

/**
 * Finer anchors: for a section, keyword patterns tried first on the text right after the
 * reference ("SPEC §2 Contact page"), then on the text before it on the same line ("Contact page
 * (SPEC §2)", nearest match wins). The first pattern that matches gives the anchor.
 */
export const REFINE = {
  'SPEC 2': [
    [/contact (page|form)|captcha/i, 'contact-page'],
    [/landing|learn more/i, 'landing-page'],
    [/referral links?\b/i, 'referral-links'],
    [/referral join|join page|referred friend|\/referral\//i, 'referral-join'],
    [/prospective|prospect\b|approve/i, 'prospective-members'],
    [/mindbody setup|mindbody|wizard|\bsync with/i, 'mindbody-setup'],
    [/issue form|issue|support/i, 'issue-form'],
    [
      /account settings|account dropdown|account button|(?<!public )top bar|sidebar|search box/i,
      'signed-in-frame',
    ],
    [/not found|404|router error|unexpected application/i, 'not-found'],
    [/\blog ?in\b/i, 'login'],
    [/sign ?up/i, 'signup'],
    [/pricing|about|privacy|home|footer|hero|public top bar/i, 'public-pages'],
    [/branches|trees table|add[- ]tree|add[- ]branch|start growing|add a new branch/i, 'branches'],
  ],
  'SPEC 4': [[/stage|process state|\bpoll|mindbody|\bimport|\bsync\b/i, 'mindbody-stages']],
  'SPEC 5': [
    [/sign ?up/i, 'validation-signup'],
    [/contact|captcha|message sanitized|phone/i, 'validation-contact'],
    [/log ?in|email and password/i, 'validation-login'],
    [/mindbody|discount on referral|discounts|credentials|referee/i, 'validation-mindbody'],
    [/issue/i, 'validation-issue'],
    [/earlier|in order|checked in order/i, 'validation-earlier'],
  ],
  'DESIGN 3': [[/pg-boss|\bjobs?\b|queue/i, 'job-path']],
  'DESIGN 5': [
    [
      /remotes manifest|remotes\.json|registerRemotes|loads? (its |the )?remotes|run time/i,
      'remote-loading',
    ],
    [/captcha|altcha/i, 'front-end'],
  ],
};

/** How far before / after a reference its keywords are looked for, in characters. */
const AFTER_WINDOW = 40;
const BEFORE_WINDOW = 60;

/** "SPEC §5", "SPEC.md §5", "SPEC§5", "DESIGN.md § 6", and a bare "§4" (continuing one of them). */
const REFERENCE = /\b(SPEC|DESIGN)(?:\.md)?\s?§\s?(\d+)|(?<![\w#])§\s?(\d+)/g;
/** "§5/§9", "§5 / §8": written as a list, "…#validation, …#constants". */
const SLASH_LIST = /(§\s?\d+)\s?\/\s?(?=§)/g;
/** A range like "SPEC §2–§4": every section in it. */
const RANGE = /\b(SPEC|DESIGN)(?:\.md)?\s?§\s?(\d+)\s?[–-]\s?§\s?(\d+)/g;
/** The documents named without a section ("verbatim from SPEC.md", "../shared/DESIGN.md"). */
const FILE_NAME = /(?:\.\.\/shared\/)?\b(SPEC|DESIGN)\.md\b(?!\s?§)/g;
const FILE_TARGET = { SPEC: PRODUCT, DESIGN: ARCHITECTURE };

const SKIPPED = [
  /^docs\//,
  /^tools\/scripts\/rewrite-spec-refs\.mjs$/,
  /^tools\/scripts\/check-doc-refs\.mjs$/,
  /^tools\/scripts\/doc-refs\.test\.mjs$/,
  /^package-lock\.json$/,
];

/** The anchor a reference to section `n` of `doc` gets, refined by its surrounding text. */
export function anchorFor(doc, n, before, after) {
  const base = SECTIONS[doc]?.[n];
  if (base === undefined) return null;
  const rules = REFINE[`${doc} ${n}`] ?? [];
  const file = base.split('#')[0];
  // Only words right after the reference ("SPEC §2 Contact page"), up to the first punctuation
  // or the next reference, name its subsection; "SPEC §2): …" says nothing after it.
  const words = /^(?:'s)?\s+([\w {}/'-]*)/.exec(after.slice(0, AFTER_WINDOW));
  const tailOwn = words ? words[1].split(/§|SPEC|DESIGN|'/)[0] : '';
  for (const [pattern, anchor] of rules) if (pattern.test(tailOwn)) return `${file}#${anchor}`;
  const head = before.slice(-BEFORE_WINDOW);
  let best = null;
  for (const [pattern, anchor] of rules) {
    const global = new RegExp(pattern.source, 'gi');
    let match;
    while ((match = global.exec(head)) !== null) {
      if (best === null || match.index > best.index) best = { index: match.index, anchor };
      if (match[0].length === 0) global.lastIndex++;
    }
  }
  return best ? `${file}#${best.anchor}` : base;
}

/**
 * Rewrites the references in one file's text. `state.doc` carries the document last named
 * (SPEC or DESIGN) from line to line, for bare "§n" continuations.
 * @returns the new text, the number of references rewritten, and bare references left alone
 */
export function rewriteText(text) {
  let count = 0;
  const unresolved = [];
  let doc = null;
  const lines = text.split('\n').map((line, index) => {
    let out = line.replace(SLASH_LIST, '$1, ').replace(RANGE, (whole, name, from, to) => {
      const refs = [];
      for (let n = Number(from); n <= Number(to); n++) {
        const target = SECTIONS[name][n];
        if (target) refs.push(target);
      }
      if (refs.length === 0) return whole;
      count += 1;
      doc = name;
      return refs.join(', ');
    });
    out = out.replace(REFERENCE, (whole, name, explicitN, bareN, offset, all) => {
      const n = Number(explicitN ?? bareN);
      if (name) doc = name;
      else {
        // A bare §n continues the document named last, on this line or before it.
        const named = [...all.slice(0, offset).matchAll(/\b(SPEC|DESIGN)\b/g)].pop();
        if (named) doc = named[1];
        if (doc === null) {
          unresolved.push(`${index + 1}: ${whole}`);
          return whole;
        }
      }
      const target = anchorFor(doc, n, all.slice(0, offset), all.slice(offset + whole.length));
      if (target === null) {
        unresolved.push(`${index + 1}: ${whole}`);
        return whole;
      }
      count += 1;
      return target;
    });
    out = out.replace(FILE_NAME, (whole, name) => {
      doc = name;
      count += 1;
      return FILE_TARGET[name];
    });
    if (/\b(SPEC|DESIGN)\b/.test(line) && !/(SPEC|DESIGN)(\.md)?\s?§/.test(line)) {
      const named = [...line.matchAll(/\b(SPEC|DESIGN)\b/g)].pop();
      if (named) doc = named[1];
    }
    return out;
  });
  return { text: lines.join('\n'), count, unresolved };
}

function trackedFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter((file) => file && !SKIPPED.some((pattern) => pattern.test(file)));
}

function main(argv) {
  const dryRun = argv.includes('--dry-run');
  const verbose = argv.includes('--verbose');
  const rootIndex = argv.indexOf('--root');
  const root = path.resolve(rootIndex >= 0 ? argv[rootIndex + 1] : process.cwd());
  let total = 0;
  let files = 0;
  for (const file of trackedFiles(root)) {
    const full = path.join(root, file);
    let buffer;
    try {
      buffer = fs.readFileSync(full);
    } catch {
      continue; // tracked but deleted in the work tree
    }
    if (buffer.includes(0)) continue; // binary
    const before = buffer.toString('utf8');
    if (!/§|SPEC\.md|DESIGN\.md/.test(before)) continue;
    const { text, count, unresolved } = rewriteText(before);
    for (const entry of unresolved)
      console.warn(`${file}:${entry}  (left alone: no SPEC/DESIGN named before it)`);
    if (count === 0) continue;
    total += count;
    files += 1;
    console.log(`${String(count).padStart(4)}  ${file}`);
    if (verbose) {
      const oldLines = before.split('\n');
      text.split('\n').forEach((line, i) => {
        if (line !== oldLines[i]) console.log(`        ${i + 1}: ${line.trim()}`);
      });
    }
    if (!dryRun) fs.writeFileSync(full, text);
  }
  console.log(`${dryRun ? 'would rewrite' : 'rewrote'} ${total} references in ${files} files`);
}

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('rewrite-spec-refs.mjs')
) {
  main(process.argv.slice(2));
}
