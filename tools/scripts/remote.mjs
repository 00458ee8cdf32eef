#!/usr/bin/env node
// Deploys and rolls back one remote without touching anything else (README "Deploying a remote"):
//   npm run remote:deploy -- <name> [--source <folder>]   build, store as a new version, switch to it
//   npm run remote:use -- <name> <version|built>           switch to a stored version (or back to dist/apps/<name>)
//   npm run remote:list [-- <name>]                        stored versions, the current one marked *
// Versions live in REMOTES_DIR (default dist/remotes): <name>/<version>/ holds one build each, named
// <UTC yyyymmdd-hhmmss>-<first 12 hex of the build's SHA-256>; current.json names the version each
// remote's new page loads use. The API re-reads current.json when it changes (no restart) and
// serves a version at /remotes/<name>@<version>/. A build whose content is already stored is not
// stored twice. --source builds from a copy of apps/<name> (e.g. another commit's checkout inside
// the workspace) instead of apps/<name>.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { binPath } from './bin.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const remotesDir = path.resolve(root, process.env.REMOTES_DIR ?? 'dist/remotes');
const currentFile = path.join(remotesDir, 'current.json');
const BUILT = 'built';
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const log = (line) => console.log(`[grove] ${line}`);

function fail(message) {
  console.error(`[grove] ${message}`);
  process.exit(1);
}

/** The remotes, read from their one list (REMOTE_NAMES in libs/shared/contracts/src/web/remotes.ts). */
const REMOTE_NAMES = JSON.parse(
  /REMOTE_NAMES = (\[[^\]]*\])/
    .exec(fs.readFileSync(path.join(root, 'libs/shared/contracts/src/web/remotes.ts'), 'utf8'))[1]
    .replace(/'/g, '"'),
);

function remoteName(name) {
  if (!REMOTE_NAMES.includes(name))
    fail(`unknown remote ${JSON.stringify(name ?? '')}: use one of ${REMOTE_NAMES.join(', ')}`);
  return name;
}

/** `file` relative to the workspace when inside it, else absolute. */
const shown = (file) => (file.startsWith(root + path.sep) ? path.relative(root, file) : file);

function readCurrent() {
  try {
    return JSON.parse(fs.readFileSync(currentFile, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    fail(`${currentFile} is not valid JSON (${error.message}); fix or remove it`);
  }
}

/** Writes current.json whole (a new file renamed over the old one), so the API never reads half of it. */
function writeCurrent(current) {
  fs.mkdirSync(remotesDir, { recursive: true });
  const temporary = `${currentFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(current, null, 2)}\n`);
  fs.renameSync(temporary, currentFile);
}

/** Stored versions of `name`, oldest first (their names start with the UTC time of the deploy). */
function storedVersions(name) {
  const dir = path.join(remotesDir, name);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(
      (entry) => VERSION.test(entry) && fs.existsSync(path.join(dir, entry, 'mf-manifest.json')),
    )
    .sort();
}

function switchTo(name, version) {
  const current = readCurrent();
  const previous = current[name] ?? BUILT;
  if (version === BUILT) delete current[name];
  else current[name] = version;
  writeCurrent(current);
  log(`${name}: ${previous} → ${version}; new page loads use it (${currentFile})`);
}

/** SHA-256 over every file of `dir` (relative path and content, in a fixed order). */
function contentHash(dir) {
  const hash = createHash('sha256');
  const walk = (folder) => {
    for (const entry of fs
      .readdirSync(folder, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(`${path.relative(dir, file)}\0`).update(fs.readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 12);
}

function deploy(name, source) {
  const staging = path.join(remotesDir, name, `.staging-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  const context = source ? path.resolve(source) : null;
  if (context && !fs.existsSync(path.join(context, 'src')))
    fail(`--source ${source} has no src folder`);
  log(`building ${name}${context ? ` from ${shown(context)}` : ''}…`);
  const started = Date.now();
  const build = spawnSync(
    process.execPath,
    [
      binPath('webpack-cli', 'webpack-cli'),
      '--config',
      path.join(root, 'apps', name, 'webpack.config.js'),
      '--mode',
      'production',
      '--output-path',
      staging,
      ...(context ? ['--context', context] : []),
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (build.status !== 0 || !fs.existsSync(path.join(staging, 'mf-manifest.json'))) {
    fs.rmSync(staging, { recursive: true, force: true });
    fail(`the build of ${name} failed; see the output above`);
  }
  const hash = contentHash(staging);
  const same = storedVersions(name).find((version) => version.endsWith(`-${hash}`));
  let version = same;
  if (same) {
    fs.rmSync(staging, { recursive: true, force: true });
    log(
      `built in ${((Date.now() - started) / 1000).toFixed(1)} s: the same files as stored version ${same}`,
    );
  } else {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    version = `${stamp}-${hash}`;
    fs.renameSync(staging, path.join(remotesDir, name, version));
    log(
      `built in ${((Date.now() - started) / 1000).toFixed(1)} s and stored as ${shown(path.join(remotesDir, name, version))}`,
    );
  }
  switchTo(name, version);
}

function use(name, version) {
  if (!version)
    fail(
      `usage: npm run remote:use -- ${name} <version|${BUILT}> (npm run remote:list shows the versions)`,
    );
  if (version !== BUILT && !storedVersions(name).includes(version)) {
    fail(
      `${name} has no stored version ${JSON.stringify(version)} in ${remotesDir} (npm run remote:list shows them)`,
    );
  }
  switchTo(name, version);
}

function list(only) {
  const current = readCurrent();
  const names = only ? [remoteName(only)] : REMOTE_NAMES;
  for (const name of names) {
    console.log(name);
    const active = current[name] ?? BUILT;
    for (const version of [...storedVersions(name), BUILT]) {
      const where =
        version === BUILT
          ? `dist/apps/${name} (the build npm start serves)`
          : shown(path.join(remotesDir, name, version));
      console.log(`  ${version === active ? '*' : ' '} ${version.padEnd(28)} ${where}`);
    }
  }
}

const [command, ...args] = process.argv.slice(2);
const sourceAt = args.indexOf('--source');
const source = sourceAt >= 0 ? args.splice(sourceAt, 2)[1] : undefined;
if (command === 'deploy') deploy(remoteName(args[0]), source);
else if (command === 'use') use(remoteName(args[0]), args[1]);
else if (command === 'list') list(args[0]);
else
  fail(
    'usage: remote.mjs deploy <name> [--source <folder>] | use <name> <version|built> | list [<name>]',
  );
