// What every benchmark needs: a throwaway embedded PostgreSQL, the built API on a free port, and
// a signed-up owner's cookie. Used by `npm run bench:*`; run `npm run build` first.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../db/embedded-postgres.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts PostgreSQL and the API with `env` added, signs an owner up and returns
 * `{ base, cookie, businessId, sql(text, params), close() }`.
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the API's node.
 */
export async function startBenchApi(env = {}) {
  const apiBundle = path.join(root, 'dist/apps/api/main.js');
  if (!fs.existsSync(apiBundle)) throw new Error('dist/apps/api/main.js is missing; run `npm run build` first.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-bench-'));
  fs.chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'db'), fast: true, log: () => {} });
  let api;
  const close = async () => {
    api?.kill('SIGTERM');
    if (api && api.exitCode === null) await new Promise((resolve) => api.once('exit', resolve));
    await db.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client(db.url('postgres'));
    await admin.connect();
    await admin.query('CREATE DATABASE grove_bench');
    await admin.end();
    const port = await freePort();
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    api = spawn(process.execPath, [...nodeArgs, apiBundle], {
      cwd: root,
      stdio: ['ignore', process.env.BENCH_API_STDOUT ? fs.openSync(process.env.BENCH_API_STDOUT, 'w') : 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        COOKIE_SECURE: 'false',
        JWT_SECRET: randomBytes(32).toString('base64url'),
        MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
        // Required in production since the contact form's captcha (issue 5); unused by the benches.
        ALTCHA_HMAC_KEY: randomBytes(32).toString('base64url'),
        DATABASE_URL: db.url('grove_bench'),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: path.join(dir, 'no-web'),
        ...env,
      },
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
      if (i > 200 || api.exitCode !== null) throw new Error('the API did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessName: 'Bench Gym', firstName: 'Bench', lastName: 'Owner', email: 'bench@grove.local', phoneNumber: '0412 345 678', website: 'bench.example.com', password: 'bench password' }),
    });
    if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
    const cookie = signup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const client = new pg.Client(db.url('grove_bench'));
    await client.connect();
    const { rows: [{ id: businessId }] } = await client.query('SELECT id FROM businesses LIMIT 1');
    return {
      base,
      cookie,
      businessId,
      sql: (text, params) => client.query(text, params),
      close: async () => {
        await client.end();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
