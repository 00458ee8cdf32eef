// `npm run test:compose` (after compose-drills.test.mjs): the backup service and the WAL archive of
// docker-compose.yml, brought up with Podman's compose (only `postgres` and `backup`, from the
// `postgres` image built here), while an operator's bad day happens to them:
//
//   drill kill     pg_basebackup killed mid-run: no backup promoted, the service's health check
//                  red, the verified backup kept; the next run succeeds and health is green again
//   drill full     the archive volume (a 160 MB tmpfs here) filled, then freed: PostgreSQL keeps
//                  serving, archiving stops, then resumes with no segment missing
//   drill partial  an interrupted archive copy (its partial temporary file left behind): the next
//                  attempt archives the segment
//   restore        restore.sh latest to a moment after all three: every row written before it
//                  (the ones written while the archive was full too) is there, nothing after
//
// A file of its own: Node 20 runs a suite's `before` hooks even when a name pattern skips all its
// tests, so drills in compose-drills.test.mjs cannot run without building the whole topology.
// Needs what compose-drills.test.mjs needs (podman, podman-compose, runc, debootstrap, root).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sleep } from './load.mjs';
import {
  compose,
  ensureBaseImage,
  healthy,
  missingComposePackages,
  podman,
  root,
  sql,
  waitHealthy,
} from './podman.mjs';

const PROJECT = 'grovebackup';
/** This run's own tag of the postgres image (other runs on the machine keep theirs). */
const IMAGE = 'localhost/grove-postgres:backup-drill';
const BACKUPS = '/var/lib/postgresql/backups';
const ARCHIVE = '/var/lib/postgresql/archive';
const db = `${PROJECT}_postgres_1`;
const backupService = `${PROJECT}_backup_1`;
const restorer = `${PROJECT}_restore`;
const volume = (name) => `${PROJECT}_${name}`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-backup-drills-'));
const logPath = path.join(work, 'compose.log');
const figures = [];
function report(line) {
  figures.push(line);
  console.log(`[backup drills] ${line}`);
}

/** The values docker-compose.yml interpolates (only postgres and backup start). */
function composeEnvironment() {
  const secret = () => crypto.randomBytes(32).toString('base64');
  const pem = path.join(work, 'unused.pem');
  fs.writeFileSync(pem, '');
  return {
    POSTGRES_PASSWORD: secret(),
    // In DATABASE_URL: hex, as docker-compose.yml asks.
    POSTGRES_API_PASSWORD: crypto.randomBytes(32).toString('hex'),
    JWT_SECRET: secret(),
    ALTCHA_HMAC_KEY: secret(),
    MINDBODY_CREDENTIALS_KEY: secret(),
    MINDBODY_API_KEY: secret(),
    PUBLIC_ORIGIN: 'https://localhost:1',
    GROVE_TLS_PEM: pem,
    METRICS_TOKEN: '',
    ARCHIVE_TIMEOUT_SECONDS: '10',
    // One backup at start, the next only when a drill asks (`backup.sh --once`).
    BACKUP_INTERVAL_SECONDS: '3600',
    // One kept: a failed run that was promoted would have pruned the good one.
    BACKUP_RETAIN: '1',
  };
}

/** `bash -c <script>` in a container as its user → stdout, or null when it exits non-zero. */
const shell = (container, script, options = {}) =>
  podman(['exec', container, 'bash', '-c', script], options);

/** Names in the backups volume (promoted backups, and any .tmp-/.verify- folders). */
async function backupFolders() {
  const out = await shell(
    backupService,
    `ls -A ${BACKUPS} | grep -E '^(2|\\.tmp-|\\.verify-)' || true`,
  );
  return out === '' ? [] : out.split('\n');
}

/** pg_stat_archiver's counters → { archived, failed, lastArchived, lastFailed }. */
async function archiver() {
  const [[archived, failed, lastArchived, lastFailed]] = await sql(
    db,
    "SELECT archived_count, failed_count, coalesce(last_archived_wal, ''), coalesce(last_failed_wal, '') FROM pg_stat_archiver",
  );
  return { archived: Number(archived), failed: Number(failed), lastArchived, lastFailed };
}

/** Polls `check` (async) until it returns a truthy value; throws `what` after `seconds`. */
async function until(check, what, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s: ${what}`);
    await sleep(500);
  }
}

/** The WAL segment being written now; switching makes it the next one archived. */
async function currentSegment() {
  const [[segment]] = await sql(db, 'SELECT pg_walfile_name(pg_current_wal_lsn())');
  return segment;
}

/** Ends the current segment and waits until the archiver has archived it. */
async function switchAndWaitArchived(what) {
  const segment = await currentSegment();
  await sql(db, 'SELECT pg_switch_wal()');
  await until(
    async () => (await archiver()).lastArchived >= segment,
    `${what}: ${segment} archived`,
  );
  return segment;
}

describe(
  'backups and the WAL archive (podman-compose: postgres and backup)',
  { concurrency: false },
  () => {
    let env;
    let log;
    let good;
    const overrides = [path.join(work, 'override.yml')];

    before(async () => {
      const missing = missingComposePackages();
      assert.deepEqual(
        missing,
        [],
        `missing Debian packages: apt-get install ${missing.join(' ')}`,
      );
      env = composeEnvironment();
      log = fs.openSync(logPath, 'a');
      fs.writeFileSync(
        overrides[0],
        `services:\n  postgres:\n    image: ${IMAGE}\n  backup:\n    image: ${IMAGE}\n`,
      );
      await cleanUp();
      ensureBaseImage();
      const mark = Date.now();
      const npmCache = path.join(os.homedir(), '.npm');
      fs.mkdirSync(npmCache, { recursive: true });
      fs.writeSync(
        log,
        await podman(
          [
            'build',
            '-f',
            path.join(root, 'Containerfile'),
            '--target',
            'postgres',
            '-t',
            IMAGE,
            root,
          ],
          { timeoutMs: 1_200_000 },
        ),
      );
      report(`postgres image built: ${Math.round((Date.now() - mark) / 1000)} s (log ${logPath})`);
      // The archive on a size-limited tmpfs, so the drill can fill it (compose would create the
      // volume on disk; it uses one that exists).
      await podman([
        'volume',
        'create',
        '--opt',
        'type=tmpfs',
        '--opt',
        'device=tmpfs',
        '--opt',
        // nr_blocks (4 kB pages): Podman 4.3 takes `size` for an XFS quota and refuses it.
        'o=nr_blocks=40960,uid=10002,gid=10002,mode=0700',
        volume('grove-wal'),
      ]);
      compose(PROJECT, ['up', '-d', '--no-build', 'postgres', 'backup'], env, log, overrides);
      await waitHealthy([db, backupService]);
      [good] = await backupFolders();
      report(`up, first backup verified: ${good}`);
    });

    after(async () => {
      if (process.env.COMPOSE_KEEP !== '1') await cleanUp();
      console.log(`[backup drills] summary\n  ${figures.join('\n  ')}`);
    });

    /** Removes this project's containers and volumes (what an earlier run left too). */
    async function cleanUp() {
      const names = (await podman(['ps', '-a', '--format', '{{.Names}}'])).split('\n');
      const ours = names.filter((name) => name.startsWith(`${PROJECT}_`));
      if (ours.length > 0) await podman(['rm', '-f', '-t', '0', ...ours]);
      compose(PROJECT, ['down', '-v', '-t', '5'], env ?? composeEnvironment(), log, overrides);
      for (const name of ['grove-wal', 'grove-db', 'grove-backups', 'restored'])
        await podman(['volume', 'rm', '-f', volume(name)], { allowFailure: true });
    }

    it('drill kill: pg_basebackup killed mid-run promotes nothing, turns health red, keeps the good backup', async () => {
      assert.match(good, /^2\d{7}T\d{6}Z$/);
      assert.equal(await healthy(backupService), true);
      // A throttled run (1 MB/s: tens of seconds for the database), killed once it has written.
      const run = podman(
        ['exec', '-e', 'BACKUP_MAX_RATE=1M', backupService, 'backup.sh', '--once'],
        { allowFailure: true },
      );
      const partial = await until(async () => {
        const out = await shell(
          backupService,
          `find ${BACKUPS} -path '*/.tmp-*/base.tar.gz' -size +100k`,
          { allowFailure: true },
        );
        return out || null;
      }, 'the run writing base.tar.gz');
      const killed = await shell(
        backupService,
        'n=0; for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = pg_basebackup ] && kill -KILL ${p#/proc/} && n=$((n+1)); done; echo $n',
      );
      assert.ok(Number(killed) >= 1, 'no pg_basebackup to kill');
      assert.equal(
        await run,
        null,
        'backup.sh --once reported success after pg_basebackup was killed',
      );
      const folders = await backupFolders();
      const failure = await shell(backupService, `cat ${BACKUPS}/.last-failure`);
      const health = await shell(backupService, 'backup-health.sh', { allowFailure: true });
      report(
        `drill kill: killed ${killed} pg_basebackup process(es) while writing ${partial}; folders after: ${folders.join(', ')}; ${failure}`,
      );
      assert.deepEqual(
        folders,
        [good],
        'only the good backup is left (nothing promoted, nothing pruned)',
      );
      assert.match(failure, /pg_basebackup exited/);
      assert.equal(health, null, 'backup-health.sh passed after a failed backup');
      assert.equal(
        await healthy(backupService),
        false,
        'the service is healthy after a failed backup',
      );
      assert.match(
        await shell(backupService, `cat ${BACKUPS}/${good}/VERIFIED`),
        /successfully verified/,
      );

      // The next run is verified and kept; BACKUP_RETAIN=1 prunes the older one; health is green.
      assert.notEqual(await podman(['exec', backupService, 'backup.sh', '--once']), null);
      const [next] = await backupFolders();
      assert.notEqual(next, good);
      assert.deepEqual(await backupFolders(), [next]);
      assert.equal(await healthy(backupService), true);
      good = next;
    });

    it('drill full: a full archive volume stops archiving, PostgreSQL keeps serving; freed, archiving resumes with nothing lost', async () => {
      await sql(
        db,
        'CREATE TABLE IF NOT EXISTS drill_rows (label text, at timestamptz DEFAULT clock_timestamp())',
      );
      await sql(db, "INSERT INTO drill_rows (label) VALUES ('before the jam')");
      await switchAndWaitArchived('before the jam');
      const start = await archiver();
      // Fill the volume (dd stops with "No space left on device").
      await shell(db, `dd if=/dev/zero of=${ARCHIVE}/filler bs=1M status=none`, {
        allowFailure: true,
      });
      const free = await shell(db, `df --output=avail -B1 ${ARCHIVE} | tail -1`);
      const jammed = await currentSegment();
      await sql(
        db,
        "INSERT INTO drill_rows (label) SELECT 'during the jam ' || n FROM generate_series(1, 1000) n",
      );
      await sql(db, 'SELECT pg_switch_wal()');
      await sql(db, "INSERT INTO drill_rows (label) VALUES ('during the jam, next segment')");
      await sql(db, 'SELECT pg_switch_wal()');
      const failing = await until(async () => {
        const now = await archiver();
        return now.failed >= start.failed + 2 ? now : null;
      }, 'archive attempts failing on the full volume');
      assert.ok(failing.lastArchived < jammed, `${jammed} was archived onto a full volume`);
      assert.ok(
        failing.lastFailed <= jammed,
        `the failing segment ${failing.lastFailed} is after ${jammed}`,
      );
      const leftovers = await shell(db, `ls -A ${ARCHIVE} | grep '\\.tmp$' || true`);
      assert.equal(leftovers, '', 'a failed copy left its temporary file on the full volume');
      // Still serving (WAL waits in pg_wal).
      assert.deepEqual(
        await sql(db, "SELECT count(*) FROM drill_rows WHERE label LIKE 'during%'"),
        [['1001']],
      );

      await shell(db, `rm ${ARCHIVE}/filler`);
      const last = await switchAndWaitArchived('after freeing the volume');
      const resumed = await archiver();
      report(
        `drill full: ${free} bytes free when filled; ${resumed.failed - start.failed} failed attempts on ${jammed}; archiving resumed up to ${last}`,
      );
      // Nothing lost: every segment from the kept backup's first one to the last is archived.
      const first = await shell(backupService, `cat ${BACKUPS}/${good}/START_WAL`);
      const archived = (await shell(db, `ls ${ARCHIVE} | grep -E '^[0-9A-F]{24}$'`)).split('\n');
      const expected = [];
      for (let n = parseInt(first.slice(16), 16); n <= parseInt(last.slice(16), 16); n++)
        expected.push(first.slice(0, 16) + n.toString(16).toUpperCase().padStart(8, '0'));
      assert.deepEqual(
        expected.filter((segment) => !archived.includes(segment)),
        [],
        'segments missing from the archive',
      );
      assert.ok(expected.includes(jammed));
    });

    it('drill partial: an interrupted archive copy (its partial temporary file left) does not block the next attempt', async () => {
      const start = await archiver();
      // A write first: right after a switch the next segment may not exist yet.
      await sql(db, "INSERT INTO drill_rows (label) VALUES ('after the interrupted copy')");
      const segment = await currentSegment();
      // What a copy killed mid-way leaves: the first megabyte under the temporary name.
      await shell(
        db,
        `head -c 1048576 "$PGDATA/pg_wal/${segment}" >${ARCHIVE}/.${segment}.tmp && ls -l ${ARCHIVE}/.${segment}.tmp`,
      );
      await switchAndWaitArchived('after the interrupted copy');
      const now = await archiver();
      const size = await shell(db, `stat -c %s ${ARCHIVE}/${segment}`);
      const leftovers = await shell(db, `ls -A ${ARCHIVE} | grep '\\.tmp$' || true`);
      report(
        `drill partial: ${segment} archived over its partial copy (${size} bytes), failed attempts ${now.failed - start.failed}`,
      );
      assert.equal(size, String(16 * 1024 * 1024));
      assert.equal(leftovers, '');
      assert.equal(now.failed, start.failed, 'the partial file made an attempt fail');
    });

    it('restores the verified backup and the archive to a moment after the drills: every row before it, none after', async () => {
      await sleep(1_100);
      const [[moment]] = await sql(
        db,
        "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'",
      );
      await sleep(1_100);
      await sql(db, "INSERT INTO drill_rows (label) VALUES ('after the moment')");
      await switchAndWaitArchived('the moment');
      const facts = `SELECT label LIKE 'after the moment' AS late, count(*) FROM drill_rows GROUP BY 1 ORDER BY 1`;
      const live = await sql(db, facts);
      const mark = Date.now();
      await podman(['volume', 'create', volume('restored')]);
      await podman([
        'run',
        '-d',
        '--name',
        restorer,
        '-e',
        'POSTGRES_PASSWORD=restore-drill-only',
        '-v',
        `${volume('grove-backups')}:${BACKUPS}:ro`,
        '-v',
        `${volume('grove-wal')}:${ARCHIVE}:ro`,
        '-v',
        `${volume('restored')}:/var/lib/postgresql/data`,
        IMAGE,
        'restore.sh',
        'latest',
        moment,
      ]);
      await until(
        async () =>
          (await podman(
            [
              'exec',
              restorer,
              'psql',
              '-U',
              'grove',
              '-d',
              'grove',
              '-Atc',
              'SELECT pg_is_in_recovery()',
            ],
            { allowFailure: true },
          )) === 'f',
        'the restore to finish',
      );
      const logs = await podman(['logs', restorer]);
      const restored = await sql(restorer, facts);
      report(
        `restore: to ${moment} from ${good} in ${Math.round((Date.now() - mark) / 1000)} s; live ${JSON.stringify(live)}, restored ${JSON.stringify(restored)}`,
      );
      assert.match(logs, new RegExp(`restore: base backup ${good}`));
      assert.match(logs, /restore: backup successfully verified/);
      assert.deepEqual(restored, [['f', String(1 + 1001 + 1)]]);
      assert.deepEqual(live, [
        ['f', String(1 + 1001 + 1)],
        ['t', '1'],
      ]);
    });
  },
);
