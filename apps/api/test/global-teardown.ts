/** Jest globalTeardown: drops the template database, stops the embedded server and removes its folder. */
import fs from 'node:fs';
import { Client } from 'pg';
import type { TestRun } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const run: TestRun | undefined = globalThis.__groveTestRun;
  if (!run) return;
  if (run.server) {
    await run.server.stop();
  } else if (run.adminUrl) {
    const client = new Client({ connectionString: run.adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${run.template}" WITH (FORCE)`);
    await client.end();
  }
  if (run.dir) fs.rmSync(run.dir, { recursive: true, force: true });
  if (run.pidFile) fs.rmSync(run.pidFile, { force: true });
}
