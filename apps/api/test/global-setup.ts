/**
 * Jest globalSetup of the API integration tests (docs/architecture.md#build-and-tests "Fast API integration tests"):
 * - reaps embedded servers orphaned by an earlier run that was killed (pid files whose owner died);
 * - starts ONE embedded PostgreSQL in a fresh mkdtemp folder (fast: no fsync), or uses DATABASE_URL;
 * - creates a template database and runs the migrations into it once;
 * - leaves the admin URL and template name in process.env for the workers (inherited).
 */
import './workspace-aliases';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { RUNS_DIR, startThrowawayServer, type EmbeddedServer } from './embedded-server';
import { migrateTestDatabase, TEST_DB_ENV, withDatabase } from './test-database';

export { RUNS_DIR };

/** What globalTeardown needs (same process as globalSetup). */
export interface TestRun {
  server?: EmbeddedServer;
  adminUrl: string;
  template: string;
  dir?: string;
  pidFile?: string;
}
declare global {
  var __groveTestRun: TestRun | undefined;
}

/** True when `pid` runs (a zombie, killed but not yet waited for, counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state …"
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

function postmasterPid(dir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Kills and removes servers whose owning Jest process is gone. */
export function reapOrphans(): void {
  if (!fs.existsSync(RUNS_DIR)) return;
  for (const file of fs.readdirSync(RUNS_DIR)) {
    const pidFile = path.join(RUNS_DIR, file);
    try {
      const run = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as {
        ownerPid: number;
        postgresPid?: number;
        dir: string;
      };
      if (alive(run.ownerPid)) continue;
      for (const pid of [postmasterPid(path.join(run.dir, 'data')), run.postgresPid]) {
        if (pid && alive(pid)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      fs.rmSync(run.dir, { recursive: true, force: true });
      fs.rmSync(pidFile, { force: true });
      console.log(`[integration] reaped an orphaned test database server (${run.dir})`);
    } catch {
      fs.rmSync(pidFile, { force: true });
    }
  }
}

export default async function globalSetup(): Promise<void> {
  reapOrphans();
  const run: TestRun = { adminUrl: '', template: `grove_template_${process.pid}` };
  globalThis.__groveTestRun = run;
  if (process.env['DATABASE_URL']) {
    run.adminUrl = process.env['DATABASE_URL'];
  } else {
    const started = Date.now();
    const throwaway = await startThrowawayServer();
    run.server = throwaway.server;
    run.dir = throwaway.dir;
    run.pidFile = throwaway.pidFile;
    run.adminUrl = run.server.url('postgres');
    console.log(`\n[integration] embedded PostgreSQL up in ${Date.now() - started} ms`);
  }
  const client = new Client({ connectionString: run.adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${run.template}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${run.template}"`);
  await client.end();
  await migrateTestDatabase(withDatabase(run.adminUrl, run.template));
  process.env[TEST_DB_ENV.adminUrl] = run.adminUrl;
  process.env[TEST_DB_ENV.template] = run.template;
}
