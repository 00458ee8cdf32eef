/**
 * A throwaway embedded PostgreSQL (tools/db/embedded-postgres.mjs) for the integration tests: the
 * run's shared server (globalSetup) and the servers a test file stops and starts itself.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A running embedded server (see `startEmbeddedPostgres` in tools/db/embedded-postgres.mjs). */
export interface EmbeddedServer {
  url(database: string): string;
  port: number;
  dataDir: string;
  pid: number | undefined;
  stop(): Promise<void>;
}
interface EmbeddedModule {
  startEmbeddedPostgres(options: {
    dataDir: string;
    port?: number;
    fast?: boolean;
    log?: (line: string) => void;
  }): Promise<EmbeddedServer>;
}

/** Where each run records `{ ownerPid, postgresPid, dir }` (globalSetup reaps those whose owner died). */
export const RUNS_DIR = path.join(os.tmpdir(), 'grove-api-test-pg');

// Native dynamic import (the file is compiled to CommonJS, the helper is an ES module).
const importEsm = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<EmbeddedModule>;

/**
 * Starts an embedded server on `dataDir` (initialised when empty; fast: no fsync), silently, in
 * this process. Only outside Jest's test sandbox (globalSetup): a test file cannot import the ES
 * module helper.
 */
async function startInProcess(dataDir: string, port: number): Promise<EmbeddedServer> {
  const helper = path.resolve(__dirname, '../../../tools/db/embedded-postgres.mjs');
  const { startEmbeddedPostgres } = await importEsm(helper);
  return startEmbeddedPostgres({ dataDir, port, fast: true, log: () => undefined });
}

/**
 * Starts an embedded server on `dataDir` under a child process (tools/db/postgres-host.mjs, as
 * `npm start` does), which a test file can do. The server stops on `stop()`, or when this process
 * goes away (the child's IPC channel closes).
 * @throws Error with the host's message when PostgreSQL does not start
 */
async function startHosted(dataDir: string, port: number): Promise<EmbeddedServer> {
  const script = path.resolve(__dirname, '../../../tools/db/postgres-host.mjs');
  const host = fork(script, [JSON.stringify({ dataDir, port, fast: true })], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => host.once('exit', resolve));
  const ready = await new Promise<{ postgresUrl: string; port: number }>((resolve, reject) => {
    host.once(
      'message',
      (message: { ready?: { postgresUrl: string; port: number }; failed?: string }) =>
        message.ready
          ? resolve(message.ready)
          : reject(new Error(message.failed ?? 'PostgreSQL did not start')),
    );
    host.once('exit', (code) =>
      reject(new Error(`PostgreSQL did not start (its host exited with code ${code})`)),
    );
  });
  return {
    port: ready.port,
    dataDir,
    pid: host.pid,
    url: (database) => {
      const url = new URL(ready.postgresUrl);
      url.pathname = `/${database}`;
      return url.toString();
    },
    async stop() {
      if (host.exitCode !== null || host.signalCode !== null) return;
      host.send('stop');
      await exited;
    },
  };
}

/** A throwaway server in a fresh temporary folder, recorded in `RUNS_DIR` until `remove()`. */
export interface ThrowawayServer {
  /** The running server (`start` replaces it). */
  server: EmbeddedServer;
  /** The temporary folder (data in `<dir>/data`). */
  dir: string;
  pidFile: string;
  /** Starts the server again on its data (after `server.stop()`), preferring `port`. */
  start(port?: number): Promise<EmbeddedServer>;
  /**
   * Stops `server` (unless stopped already) and deletes its folder and record.
   */
  remove(): Promise<void>;
}

/**
 * Starts a server in a new temporary folder, recorded so that a later run reaps it (and its
 * folder) when this process dies without removing it.
 * @param options.hosted run it under a child process (required inside a test file)
 */
export async function startThrowawayServer(
  options: { hosted?: boolean } = {},
): Promise<ThrowawayServer> {
  const starter = options.hosted ? startHosted : startInProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-api-test-'));
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  const pidFile = path.join(RUNS_DIR, `${process.pid}-${path.basename(dir)}.json`);
  fs.writeFileSync(pidFile, JSON.stringify({ ownerPid: process.pid, dir }));
  const dataDir = path.join(dir, 'data');
  const throwaway: ThrowawayServer = {
    server: await starter(dataDir, 0),
    dir,
    pidFile,
    async start(port = 0) {
      throwaway.server = await starter(dataDir, port);
      return throwaway.server;
    },
    async remove() {
      await throwaway.server.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(pidFile, { force: true });
    },
  };
  if (!options.hosted)
    fs.writeFileSync(
      pidFile,
      JSON.stringify({ ownerPid: process.pid, postgresPid: throwaway.server.pid, dir }),
    );
  return throwaway;
}
