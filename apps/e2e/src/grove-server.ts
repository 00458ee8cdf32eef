import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { groveServer, workspaceRoot } from '../playwright.config';

/** A Grove started by {@link startGrove}: its origin, and how to stop it. */
export interface GroveServer {
  /** `http://localhost:<port>` */
  url: string;
  /** Stops the API and its embedded PostgreSQL and removes its state folder. */
  stop(): Promise<void>;
}

/** The state folder of each Grove {@link startGrove} started in this process, by its origin. */
const stateDirs = new Map<string, string>();

/**
 * The database URL of the journeys' Grove at `origin`: one {@link startGrove} started, else the
 * shared one (playwright.config.ts, state in GROVE_E2E_STATE). Read from its embedded PostgreSQL's
 * `postmaster.pid` (4th line: the port), in `<state>/db` or where tools/db/embedded-postgres.mjs's
 * `reachableDataDir` moved it (`/var/tmp/grove-data/<sha1 of that path, 12 hex>`).
 * @throws Error when that database is not running
 */
export function groveDatabaseUrl(origin: string): string {
  const stateDir = stateDirs.get(origin) ?? process.env.GROVE_E2E_STATE ?? '';
  const preferred = path.resolve(stateDir, 'db');
  const moved = path.join(
    '/var/tmp/grove-data',
    createHash('sha1').update(preferred).digest('hex').slice(0, 12),
  );
  for (const dataDir of [preferred, moved]) {
    const pidFile = path.join(dataDir, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) continue;
    const port = fs.readFileSync(pidFile, 'utf8').split('\n')[3]?.trim();
    if (port) return `postgres://postgres:grove@127.0.0.1:${port}/grove`;
  }
  throw new Error(`no running database for the Grove at ${origin} (state ${stateDir})`);
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts a second Grove for journeys that need a configuration of their own (e.g. a 10 s access
 * token): the same production build and `tools/scripts/start.mjs --no-build` as the main e2e
 * server (playwright.config.ts), on a free port, with a throwaway embedded database, no Mindbody
 * sandbox, and `env` on top. Waits until `/api/health` answers (up to `timeoutMs`).
 * @throws Error when it exits or does not become healthy in time
 */
export async function startGrove(
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<GroveServer> {
  const port = await freePort();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-e2e-extra-'));
  // mkdtemp makes a 0700 folder; the embedded PostgreSQL (user postgres) must enter it.
  fs.chmodSync(stateDir, 0o755);
  const child = spawn(process.execPath, ['tools/scripts/start.mjs', '--no-build'], {
    cwd: workspaceRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      // The journeys' Grove settings (playwright.config.ts), on this server's port and state folder.
      ...groveServer().env,
      PORT: String(port),
      GROVE_STATE_DIR: stateDir,
      REMOTES_DIR: path.join(stateDir, 'remotes'),
      // Set, so start.mjs starts no Mindbody sandbox: these journeys do not use Mindbody.
      MINDBODY_API_URL: 'http://127.0.0.1:9/public/v6',
      ...env,
    },
  });
  const url = `http://localhost:${port}`;
  stateDirs.set(url, stateDir);
  const stop = async () => {
    stateDirs.delete(url);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the extra Grove on port ${port} did not become healthy`);
}
