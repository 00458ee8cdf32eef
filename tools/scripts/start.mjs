#!/usr/bin/env node
// `npm start`: one command to a running Grove (docs/architecture.md#build-and-tests).
//  1. builds what is stale (Nx cache: an unchanged project is not rebuilt),
//  2. starts the embedded PostgreSQL unless DATABASE_URL is set (data in .grove/db, git-ignored),
//  3. starts the Mindbody sandbox (apps/mindbody-sandbox) on a free port unless MINDBODY_API_URL
//     is set, and points the API at it (MINDBODY_SANDBOX_CLIENTS clients, default 2,500),
//  4. starts the Stripe stand-in (apps/stripe-sandbox) unless STRIPE_SECRET_KEY is set or
//     GROVE_BILLING=off, creates Grove's plan in it and points the API's billing at it,
//  5. starts the API, which runs the migrations and serves the shell, the remotes and /api on
//     one port; on the first start of an empty embedded database it also seeds a demo business,
//  6. starts MailDev (a page of every email Grove sends) unless SMTP_URL is set,
//  7. prints the URLs (and the demo login).
// Flags: --no-build (use dist/ as it is), --watch (restart the API when its bundle changes).
// GROVE_EPHEMERAL_STATE=true removes the state folder (database included) on exit, for tests. Environment: see docs/configuration.md.
// The build's output goes to .grove/build.log; the API's log is printed one short line per entry
// (dev-log.mjs; GROVE_RAW_LOGS=true prints its JSON lines as they are).
import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { reachableDataDir, startDetachedPostgres } from '../db/embedded-postgres.mjs';
import { binPath } from './bin.mjs';
import { devLogLine } from './dev-log.mjs';
import { STRIPE_SANDBOX_KEY, startStripeStandIn } from './stripe-stand-in.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const log = (line) => console.log(`[grove] ${line}`);
const port = Number(process.env.PORT ?? 3000);
const stateDir = path.resolve(process.env.GROVE_STATE_DIR ?? path.join(root, '.grove'));
const WEB_PROJECTS = ['shell', 'marketing', 'dashboard', 'integrations', 'referral'];
/** No Mindbody configured: run the sandbox stand-in (docs/architecture.md#mindbody, docs/architecture.md#build-and-tests). */
const useSandbox = !process.env.MINDBODY_API_URL;
/** No Stripe key and billing not off: Grove's own bill runs on the Stripe stand-in (docs/stripe.md). */
const useStripeSandbox = !process.env.STRIPE_SECRET_KEY && process.env.GROVE_BILLING !== 'off';

/** Where `npm start` writes the build's output (Nx and webpack), instead of the console. */
const buildLog = path.join(stateDir, 'build.log');

function build() {
  const shownLog = buildLog.startsWith(root + path.sep) ? path.relative(root, buildLog) : buildLog;
  log(`building what changed (first run takes a minute or two; output in ${shownLog})…`);
  fs.mkdirSync(stateDir, { recursive: true });
  const output = fs.openSync(buildLog, 'w');
  const result = spawnSync(
    process.execPath,
    [
      binPath('nx'),
      'run-many',
      '-t',
      'build',
      `--projects=${[
        'api',
        ...WEB_PROJECTS,
        ...(useSandbox ? ['mindbody-sandbox'] : []),
        ...(useStripeSandbox ? ['stripe-sandbox'] : []),
      ].join(',')}`,
      '--outputStyle=static',
    ],
    {
      cwd: root,
      stdio: ['ignore', output, output],
      env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
    },
  );
  fs.closeSync(output);
  if (result.status !== 0) {
    const tail = fs.readFileSync(buildLog, 'utf8').trimEnd().split('\n').slice(-40).join('\n');
    console.error(`${tail}\n[grove] the build failed; the whole output is in ${buildLog}.`);
    process.exit(result.status ?? 1);
  }
}

/**
 * A secret kept in the state folder so it survives a restart: the value of the environment
 * variable `name` when set, else the content of `.grove/<file>` (created once with `bytes` random
 * bytes in `encoding`, mode 0600).
 */
function stableSecret(name, file, bytes, encoding) {
  if (process.env[name]) return process.env[name];
  const location = path.join(stateDir, file);
  if (!fs.existsSync(location)) {
    fs.mkdirSync(stateDir, { recursive: true });
    fs.writeFileSync(location, randomBytes(bytes).toString(encoding), { mode: 0o600 });
  }
  return fs.readFileSync(location, 'utf8').trim();
}

/** `preferred` when it is free on 127.0.0.1, else any free port. */
function freePort(preferred) {
  const attempt = (port) =>
    new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const { port: chosen } = server.address();
        server.close(() => resolve(chosen));
      });
    });
  return attempt(preferred).catch(() => attempt(0));
}

/**
 * Starts MailDev (a development SMTP server with a web page of every email it received) when
 * SMTP_URL is not set and GROVE_MAIL_VIEWER is not 'false', and points the API's SMTP_URL at it,
 * so the emails Grove sends in development can be read in a browser. Both ports bind 127.0.0.1.
 * @returns the child process and the API's SMTP_URL, or null when not started
 */
async function mailViewer() {
  if (process.env.SMTP_URL || process.env.GROVE_MAIL_VIEWER === 'false') return null;
  const smtpPort = await freePort(Number(process.env.GROVE_MAIL_SMTP_PORT ?? 1025));
  const webPort = await freePort(Number(process.env.GROVE_MAIL_WEB_PORT ?? 1080));
  const child = spawn(
    process.execPath,
    [
      binPath('maildev'),
      '--smtp',
      String(smtpPort),
      '--ip',
      '127.0.0.1',
      '--web',
      String(webPort),
      '--web-ip',
      '127.0.0.1',
      '--silent',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const web = `http://localhost:${webPort}`;
  for (let attempt = 0; attempt < 120 && child.exitCode === null; attempt++) {
    try {
      if ((await fetch(web, { headers: { accept: 'text/html' } })).ok) {
        log(`emails Grove sends: ${web} (MailDev; SMTP on 127.0.0.1:${smtpPort})`);
        return { child, env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  log('the mail viewer did not start: emails go to the outbox_emails table');
  return null;
}

/** Starts the Mindbody sandbox and waits until it answers; the API's MINDBODY_* variables point at it. */
async function mindbodySandbox() {
  const bundle = path.join(root, 'dist/apps/mindbody-sandbox/main.js');
  if (!fs.existsSync(bundle)) {
    log(
      'the Mindbody sandbox is not built (npx nx run mindbody-sandbox:build): Mindbody Setup cannot connect until it is',
    );
    return null;
  }
  const sandboxPort = await freePort(Number(process.env.GROVE_SANDBOX_PORT ?? 4010));
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // The sandbox takes the API key this Grove sends (a production API refuses the sandbox's default).
    env: {
      ...process.env,
      PORT: String(sandboxPort),
      HOST: '127.0.0.1',
      MINDBODY_SANDBOX_API_KEY: mindbodyApiKey,
    },
  });
  const origin = `http://127.0.0.1:${sandboxPort}`;
  for (let attempt = 0; attempt < 120 && child.exitCode === null; attempt++) {
    try {
      if ((await fetch(`${origin}/health`)).ok) {
        log(
          `Mindbody sandbox on ${origin} (site -99, staff login owner@sandbox.example.com / sandbox-pass-1234)`,
        );
        return {
          child,
          env: {
            MINDBODY_API_URL: `${origin}/public/v6`,
            MINDBODY_WEBHOOKS_URL: `${origin}/api/v1`,
          },
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  console.error(
    '[grove] the Mindbody sandbox did not start; set MINDBODY_API_URL to use a real Mindbody.',
  );
  process.exit(1);
}

/**
 * Starts the Stripe stand-in, delivering webhooks to this Grove's `/api/billing/stripe-webhook`,
 * creates Grove's plan in it ($99 a month, USD) and returns the API's STRIPE_* variables. Its
 * data lives in memory: a Stripe customer a business got in an earlier run is unknown to it.
 */
async function stripeSandbox() {
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  let started;
  try {
    started = await startStripeStandIn({
      root,
      port: await freePort(Number(process.env.GROVE_STRIPE_SANDBOX_PORT ?? 4020)),
      webhooks: [
        { url: `http://127.0.0.1:${port}/api/billing/stripe-webhook`, secret: webhookSecret },
      ],
    });
  } catch {
    console.error(
      '[grove] the Stripe stand-in did not start; set GROVE_BILLING=off to run without billing.',
    );
    process.exit(1);
  }
  if (!started) {
    log('the Stripe stand-in is not built (npx nx run stripe-sandbox:build): billing is off');
    return { child: null, env: { GROVE_BILLING: 'off' } };
  }
  log(`Stripe stand-in on ${started.origin} (Checkout's test card 4242 4242 4242 4242)`);
  return {
    child: started.child,
    env: {
      STRIPE_SECRET_KEY: STRIPE_SANDBOX_KEY,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICES: `usd:${started.priceId}`,
      STRIPE_API_URL: started.origin,
    },
  };
}

async function database() {
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, fresh: false, stop: async () => {} };
  const dataDir = reachableDataDir(path.join(stateDir, 'db'), log);
  // In a process group of its own, so Ctrl+C does not reach it: stop() ends it after the API.
  const server = await startDetachedPostgres({
    dataDir,
    port: Number(process.env.GROVE_DB_PORT ?? 5433),
  });
  const admin = new pg.Client(server.url('postgres'));
  await admin.connect();
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'grove'");
  if (exists.rowCount === 0) await admin.query('CREATE DATABASE grove');
  await admin.end();
  log(`embedded PostgreSQL on port ${server.port}, data in ${dataDir}`);
  return { url: server.url('grove'), fresh: server.fresh, dataDir, stop: server.stop };
}

async function waitForHealth(url, api) {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (api.exitCode !== null) return false;
    try {
      const reply = await fetch(`${url}/api/health`);
      if (reply.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

if (!process.argv.includes('--no-build')) build();
// Grove's Mindbody developer key: MINDBODY_API_KEY when set, else one generated once for this
// machine and given to the sandbox too (a production API refuses to start with the sandbox's default).
const mindbodyApiKey = stableSecret('MINDBODY_API_KEY', 'mindbody-api-key', 24, 'hex');
const db = await database();
const sandbox = useSandbox ? await mindbodySandbox() : null;
const stripe = useStripeSandbox ? await stripeSandbox() : null;
const mail = await mailViewer();
const watch = process.argv.includes('--watch')
  ? ['--watch-path', path.join(root, 'dist/apps/api')]
  : [];
// The API's Prometheus metrics (GET /metrics) on a port of their own: METRICS_PORT or 9464, else
// the next free one (several Groves on one machine, e.g. the e2e runs).
const metricsPort = await freePort(Number(process.env.METRICS_PORT ?? 9464));
const api = spawn(process.execPath, [...watch, path.join(root, 'dist/apps/api/main.js')], {
  cwd: root,
  // JSON log lines, printed one short line each (dev-log.mjs); GROVE_RAW_LOGS=true prints them as they are.
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    NODE_ENV: 'production',
    COOKIE_SECURE: 'false',
    WEB_DIST_DIR: path.join(root, 'dist/apps'),
    GROVE_SEED_DEMO: db.fresh ? 'true' : 'false',
    // JSON lines, which this script prints as one short line each (dev-log.mjs).
    LOG_PRETTY: 'false',
    // OpenAPI at /api/docs for the developer running Grove locally (off by default in production).
    API_DOCS_ENABLED: 'true',
    // Every link in an email is built from it (required in production); the local site by default.
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    MINDBODY_API_KEY: mindbodyApiKey,
    // Neither SMTP_URL nor MailDev (GROVE_MAIL_VIEWER=false): emails stay in outbox_emails.
    ...(mail || process.env.SMTP_URL ? {} : { MAIL_OUTBOX_ONLY: 'true' }),
    ...sandbox?.env,
    // Grove's own bill on the Stripe stand-in (no STRIPE_SECRET_KEY): docs/stripe.md.
    ...stripe?.env,
    ...process.env,
    // Only started when SMTP_URL is unset or empty: its SMTP_URL wins.
    ...mail?.env,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATABASE_URL: db.url,
    // Signs access tokens, so sessions survive a restart.
    JWT_SECRET: stableSecret('JWT_SECRET', 'jwt-secret', 48, 'base64url'),
    // AES-256-GCM key (32 bytes, base64) of the Mindbody secrets the API stores.
    MINDBODY_CREDENTIALS_KEY: stableSecret(
      'MINDBODY_CREDENTIALS_KEY',
      'mindbody-credentials-key',
      32,
      'base64',
    ),
    // Signs altcha captcha challenges, so a challenge survives a restart.
    ALTCHA_HMAC_KEY: stableSecret('ALTCHA_HMAC_KEY', 'altcha-hmac-key', 48, 'base64url'),
  },
});

const rawLogs = process.env.GROVE_RAW_LOGS === 'true';
readline.createInterface({ input: api.stdout }).on('line', (line) => {
  const shown = rawLogs ? line : devLogLine(line);
  if (shown !== null) console.log(shown);
});

/** The API's own shutdown is bounded (jobs 7 s, queries 2 s); past this it is killed. */
const API_STOP_TIMEOUT_MS = 15_000;

let stopping = false;
// The order matters: the API first (it finishes its jobs and queries), PostgreSQL last.
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  if (api.exitCode === null && api.signalCode === null) {
    const exited = new Promise((resolve) => api.once('exit', resolve));
    api.kill('SIGTERM');
    const force = setTimeout(() => {
      log(`the API did not stop within ${API_STOP_TIMEOUT_MS / 1000} s; killing it`);
      api.kill('SIGKILL');
    }, API_STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(force);
  }
  if (sandbox && sandbox.child.exitCode === null) sandbox.child.kill('SIGTERM');
  if (stripe?.child && stripe.child.exitCode === null) stripe.child.kill('SIGTERM');
  if (mail && mail.child.exitCode === null) mail.child.kill('SIGTERM');
  await db.stop().catch(() => {});
  if (process.env.GROVE_EPHEMERAL_STATE === 'true') {
    fs.rmSync(stateDir, { recursive: true, force: true });
    if (db.dataDir) fs.rmSync(db.dataDir, { recursive: true, force: true });
  }
  process.exit(code);
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
api.on('exit', (code) => {
  if (!stopping) {
    console.error(`[grove] the API stopped (exit code ${code}).`);
    void stop(code ?? 1);
  }
});

const url = `http://localhost:${port}`;
if (await waitForHealth(url, api)) {
  log(`Grove is running at ${url}`);
  log(`metrics (Prometheus): http://localhost:${metricsPort}/metrics`);
  if (db.fresh) log('demo login: demo@grove.local / grove-demo-1234');
  log('press Ctrl+C to stop');
} else if (!stopping) {
  console.error('[grove] the API did not become healthy; see the log above.');
  await stop(1);
}
