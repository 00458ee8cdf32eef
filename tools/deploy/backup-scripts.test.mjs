// The backup, archive and restore scripts of the `postgres` image (deploy/postgres/), run as shell
// scripts against temporary folders (`npm run test:deploy`, part of `npm test`): the WAL archive
// command against real files (an interrupted copy, a retry, a clash), backup.sh with PostgreSQL's
// programs replaced by stand-ins that fail on demand (so a failed pg_basebackup or
// pg_verifybackup is seen to keep nothing), backup-health.sh, and restore.sh's target validation and
// choice of backup (--dry-run). `npm run test:compose` runs the same scripts against PostgreSQL.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = (name) => path.join(root, 'deploy/postgres', name);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-backup-scripts-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

let dirs = 0;
/** A fresh empty folder under the test's temporary folder. */
function freshDir(name) {
  const dir = path.join(work, `${name}-${++dirs}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** `bash <script> ...args` → { status, stdout, stderr }. */
function run(name, args, env = {}) {
  const result = spawnSync('bash', [script(name), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A 16 MB WAL segment's worth of random bytes. */
function segment(dir, name) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, crypto.randomBytes(16 * 1024 * 1024));
  return file;
}

/** Polls `check` until it holds (a state, not a duration); throws after 30 s. */
async function until(check, what) {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('archive-wal.sh (archive_command)', () => {
  const NAME = '000000010000000000000007';

  it('archives a segment under its name, identical, with no temporary file left', () => {
    const pgWal = freshDir('pg_wal');
    const archive = freshDir('archive');
    const source = segment(pgWal, NAME);
    const result = run('archive-wal.sh', [source, NAME], { WAL_ARCHIVE_DIR: archive });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(fs.readdirSync(archive), [NAME]);
    assert.ok(fs.readFileSync(path.join(archive, NAME)).equals(fs.readFileSync(source)));
  });

  it('succeeds again when the identical segment is already archived (a retry after a crash)', () => {
    const pgWal = freshDir('pg_wal');
    const archive = freshDir('archive');
    const source = segment(pgWal, NAME);
    fs.copyFileSync(source, path.join(archive, NAME));
    const result = run('archive-wal.sh', [source, NAME], { WAL_ARCHIVE_DIR: archive });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(fs.readdirSync(archive), [NAME]);
  });

  it('fails, and leaves the archived file alone, when a DIFFERENT segment of that name is archived', () => {
    const pgWal = freshDir('pg_wal');
    const archive = freshDir('archive');
    const source = segment(pgWal, NAME);
    const other = segment(freshDir('other'), NAME);
    fs.copyFileSync(other, path.join(archive, NAME));
    const result = run('archive-wal.sh', [source, NAME], { WAL_ARCHIVE_DIR: archive });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /already exists with different contents/);
    assert.ok(fs.readFileSync(path.join(archive, NAME)).equals(fs.readFileSync(other)));
    assert.deepEqual(fs.readdirSync(archive), [NAME]);
  });

  it('fails (status 1, never 0) when the archive cannot be written', () => {
    const source = segment(freshDir('pg_wal'), NAME);
    const result = run('archive-wal.sh', [source, NAME], {
      WAL_ARCHIVE_DIR: path.join(work, 'no-such-archive'),
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /not archived: could not copy/);
  });

  it('an interrupted copy leaves only a partial temporary file; the next attempt archives the segment', async () => {
    const pgWal = freshDir('pg_wal');
    const archive = freshDir('archive');
    const source = segment(pgWal, NAME);
    // The archiver reads from a pipe that delivers 1 MB, then the copy is killed mid-way
    // (SIGKILL: as when the container or the machine dies).
    const fifo = path.join(pgWal, 'slow-source');
    spawnSync('mkfifo', [fifo]);
    const copy = spawn('bash', [script('archive-wal.sh'), fifo, NAME], {
      env: { ...process.env, WAL_ARCHIVE_DIR: archive },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => copy.on('exit', resolve));
    // Opened off the main thread: should the script not read the pipe, its exit ends the test.
    const writer = await Promise.race([
      fs.promises.open(fifo, 'w'),
      exited.then((code) => Promise.reject(new Error(`archive-wal.sh exited ${code} early`))),
    ]);
    await writer.write(fs.readFileSync(source).subarray(0, 1024 * 1024));
    const temporary = path.join(archive, `.${NAME}.tmp`);
    await until(
      () => fs.existsSync(temporary) && fs.statSync(temporary).size === 1024 * 1024,
      'the first megabyte in the temporary file',
    );
    process.kill(-copy.pid, 'SIGKILL');
    await exited;
    await writer.close();
    assert.deepEqual(fs.readdirSync(archive), [`.${NAME}.tmp`], 'only the partial copy is left');

    const retry = run('archive-wal.sh', [source, NAME], { WAL_ARCHIVE_DIR: archive });
    assert.equal(retry.status, 0, retry.stderr);
    assert.deepEqual(fs.readdirSync(archive), [NAME]);
    assert.ok(fs.readFileSync(path.join(archive, NAME)).equals(fs.readFileSync(source)));
  });
});

/**
 * Stand-ins for PostgreSQL's programs, first on PATH: pg_basebackup writes a small tar backup
 * (FAKE_BASEBACKUP_EXIT: its status, after writing part of it), pg_verifybackup answers
 * FAKE_VERIFY_EXIT, psql answers the clock (FAKE_END_EPOCH) and WAL names, pg_archivecleanup logs
 * its arguments to $FAKE_LOG.
 */
function fakePostgres() {
  const bin = freshDir('bin');
  const write = (name, text) =>
    fs.writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\n${text}\n`, { mode: 0o755 });
  write('pg_isready', 'exit 0');
  write(
    'pg_basebackup',
    `dir=''
while [ $# -gt 0 ]; do case "$1" in -D) dir=$2; shift 2 ;; *) shift ;; esac; done
mkdir -p "$dir" /tmp/grove-fake-src.$$/base && echo data >/tmp/grove-fake-src.$$/base/PG_VERSION
tar -czf "$dir/base.tar.gz" -C /tmp/grove-fake-src.$$/base . && rm -rf /tmp/grove-fake-src.$$
[ "\${FAKE_BASEBACKUP_EXIT:-0}" = 0 ] || { echo partial >"$dir/half-written"; exit "$FAKE_BASEBACKUP_EXIT"; }
mkdir -p /tmp/grove-fake-wal.$$ && tar -czf "$dir/pg_wal.tar.gz" -C /tmp/grove-fake-wal.$$ . && rm -rf /tmp/grove-fake-wal.$$
printf '{ "WAL-Ranges": [\\n{ "Timeline": 1, "Start-LSN": "0/2000028", "End-LSN": "0/2000100" }\\n] }\\n' >"$dir/backup_manifest"`,
  );
  write(
    'pg_verifybackup',
    `[ "\${FAKE_VERIFY_EXIT:-0}" = 0 ] || { echo "pg_verifybackup: error: checksum mismatch for file \\"base/1/1259\\""; exit "$FAKE_VERIFY_EXIT"; }
echo "backup successfully verified"`,
  );
  write(
    'psql',
    `case "$*" in
*clock_timestamp*) echo "\${FAKE_END_EPOCH:-1795771800.123456} 2026-11-27 09:30:00.123456+00" ;;
*pg_walfile_name*) echo 000000010000000000000002 ;;
*pg_switch_wal*) echo 0/3000000 ;;
*) exit 1 ;;
esac`,
  );
  write('pg_archivecleanup', 'echo "$@" >>"$FAKE_LOG"');
  return bin;
}

describe('backup.sh --once and backup-health.sh', () => {
  const bin = fakePostgres();
  /** Runs `backup.sh --once` into `backups` with the stand-ins and `env`. */
  const backup = (backups, env = {}) =>
    run('backup.sh', ['--once'], {
      PATH: `${bin}:${process.env.PATH}`,
      GROVE_BACKUPS_DIR: backups,
      WAL_ARCHIVE_DIR: freshDir('archive'),
      FAKE_LOG: path.join(backups, '..', `cleanup-${path.basename(backups)}.log`),
      BACKUP_RETAIN: '2',
      ...env,
    });
  const health = (backups, env = {}) =>
    run('backup-health.sh', [], {
      GROVE_BACKUPS_DIR: backups,
      BACKUP_INTERVAL_SECONDS: '60',
      ...env,
    });
  const kept = (backups) => fs.readdirSync(backups).filter((name) => /^2\d{7}T\d{6}Z$/.test(name));
  const now = () => `${Math.floor(Date.now() / 1000)}.000000`;

  it('keeps a verified backup: promoted under its stamp with its end and WAL, health green', () => {
    const backups = freshDir('backups');
    const result = backup(backups, { FAKE_END_EPOCH: now() });
    assert.equal(result.status, 0, result.stderr);
    const [stamp] = kept(backups);
    assert.ok(stamp, 'no backup kept');
    const dir = path.join(backups, stamp);
    assert.match(fs.readFileSync(path.join(dir, 'VERIFIED'), 'utf8'), /successfully verified/);
    assert.equal(
      fs.readFileSync(path.join(dir, 'START_WAL'), 'utf8'),
      '000000010000000000000002\n',
    );
    assert.match(fs.readFileSync(path.join(dir, 'END_EPOCH'), 'utf8'), /^\d{10}\.\d{6}\n$/);
    assert.match(result.stdout, /verified full backup/);
    assert.deepEqual(
      fs
        .readdirSync(backups)
        .filter((name) => name.startsWith('.tmp-') || name.startsWith('.verify-')),
      [],
    );
    assert.equal(health(backups).status, 0);
  });

  for (const [step, env, message] of [
    ['pg_basebackup fails mid-run', { FAKE_BASEBACKUP_EXIT: '1' }, /pg_basebackup exited 1/],
    ['pg_basebackup is killed', { FAKE_BASEBACKUP_EXIT: '137' }, /pg_basebackup exited 137/],
    ['pg_verifybackup finds a mismatch', { FAKE_VERIFY_EXIT: '1' }, /checksum mismatch/],
  ]) {
    it(`when ${step}: nothing is promoted, the good backup is kept, health is red`, async () => {
      const backups = freshDir('backups');
      assert.equal(backup(backups, { FAKE_END_EPOCH: now() }).status, 0);
      const [good] = kept(backups);
      // A second later: the next backup gets its own stamp.
      await until(
        () => new Date().toISOString().slice(17, 19) !== good.slice(13, 15),
        'a new second',
      );
      const failed = backup(backups, { ...env, BACKUP_RETAIN: '1' });
      assert.equal(failed.status, 1);
      assert.match(failed.stderr, message);
      assert.doesNotMatch(failed.stdout, /verified full backup/);
      assert.deepEqual(kept(backups), [good], 'the good backup is the only one');
      assert.deepEqual(
        fs
          .readdirSync(backups)
          .filter((name) => name.startsWith('.tmp-') || name.startsWith('.verify-')),
        [],
        'the partial backup is removed',
      );
      const red = health(backups);
      assert.equal(red.status, 1);
      assert.match(red.stdout, message);
      // The next good backup clears it, and pruning keeps the newest verified one only.
      await until(
        () => new Date().toISOString().slice(17, 19) !== good.slice(13, 15),
        'a new second',
      );
      assert.equal(backup(backups, { FAKE_END_EPOCH: now(), BACKUP_RETAIN: '1' }).status, 0);
      assert.equal(kept(backups).length, 1);
      assert.notEqual(kept(backups)[0], good);
      assert.equal(health(backups).status, 0);
    });
  }

  it('prunes unverified folders and keeps the newest BACKUP_RETAIN verified ones', () => {
    const backups = freshDir('backups');
    for (const [stamp, verified] of [
      ['20261101T000000Z', true],
      ['20261102T000000Z', true],
      ['20261103T000000Z', false],
      ['20261104T000000Z', true],
    ]) {
      const dir = path.join(backups, stamp);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'START_WAL'), `0000000100000000000000${stamp.slice(6, 8)}\n`);
      fs.writeFileSync(path.join(dir, 'END_EPOCH'), '1793491200.000000\n');
      if (verified) fs.writeFileSync(path.join(dir, 'VERIFIED'), 'backup successfully verified\n');
    }
    const result = backup(backups, { FAKE_END_EPOCH: now(), BACKUP_RETAIN: '2' });
    assert.equal(result.status, 0, result.stderr);
    const names = kept(backups);
    assert.equal(names.length, 2);
    assert.equal(names[0], '20261104T000000Z');
    const log = fs.readFileSync(
      path.join(backups, '..', `cleanup-${path.basename(backups)}.log`),
      'utf8',
    );
    assert.match(
      log,
      /000000010000000000000004\n$/,
      'WAL before the oldest kept backup is removed',
    );
  });

  it('reports red when the newest verified backup ended more than 2 × the interval ago', () => {
    const backups = freshDir('backups');
    const old = `${Math.floor(Date.now() / 1000) - 121}.000000`;
    assert.equal(backup(backups, { FAKE_END_EPOCH: old }).status, 0);
    const red = health(backups, { BACKUP_INTERVAL_SECONDS: '60' });
    assert.equal(red.status, 1);
    assert.match(red.stdout, /more than 2 × 60 s/);
    assert.equal(health(backups, { BACKUP_INTERVAL_SECONDS: '61' }).status, 0);
    assert.equal(health(freshDir('empty')).status, 1);
  });
});

describe('restore.sh: the target time and the backup it starts from', () => {
  const backups = freshDir('backups');
  /** A backup folder as backup.sh leaves it (`verified`: with VERIFIED). */
  const fakeBackup = (stamp, endedAt, verified = true) => {
    const dir = path.join(backups, stamp);
    fs.mkdirSync(dir);
    const epoch = (Date.parse(endedAt) / 1000).toFixed(6);
    fs.writeFileSync(path.join(dir, 'END_EPOCH'), `${epoch}\n`);
    fs.writeFileSync(path.join(dir, 'ENDED_AT'), `${endedAt}\n`);
    fs.writeFileSync(path.join(dir, 'START_WAL'), '000000010000000000000002\n');
    fs.writeFileSync(path.join(dir, 'backup_manifest'), '{}\n');
    if (verified) fs.writeFileSync(path.join(dir, 'VERIFIED'), 'backup successfully verified\n');
  };
  // Started 09:00, ended 09:20; started 10:00, ended 10:40; a newer one never verified.
  fakeBackup('20261127T090000Z', '2026-11-27T09:20:00.000Z');
  fakeBackup('20261127T100000Z', '2026-11-27T10:40:00.000Z');
  fakeBackup('20261127T110000Z', '2026-11-27T11:05:00.000Z', false);
  fs.mkdirSync(path.join(backups, '.tmp-20261127T120000Z'));
  const pgdata = freshDir('pgdata');
  const restore = (...args) =>
    run('restore.sh', args, { GROVE_BACKUPS_DIR: backups, PGDATA: pgdata });

  for (const target of [
    'yesterday',
    '2026-11-27 09:30:00',
    '2026-11-27 09:30+00',
    '27/11/2026 09:30:00+00',
    "2026-11-27 09:30:00+00'; DROP TABLE members; --",
    "2026-11-27 09:30:00+00'\nrestore_command = 'rm -rf /'",
    '2026-11-27 09:30:00 +00',
  ])
    it(`refuses the target ${JSON.stringify(target)} (exit 2), touching nothing`, () => {
      const result = restore('latest', target);
      assert.equal(result.status, 2);
      assert.match(
        result.stderr,
        /restore: target time .* is not 'YYYY-MM-DD HH:MM:SS\[\.ffffff\]' with a UTC offset/s,
      );
      assert.deepEqual(fs.readdirSync(pgdata), []);
    });

  it('refuses an impossible date and a moment in the future', () => {
    for (const target of ['2026-02-30 09:30:00+00', '2026-11-27 25:30:00+00']) {
      const result = restore('latest', target);
      assert.equal(result.status, 2);
      assert.match(result.stderr, /is not a real moment/);
    }
    const future = restore('latest', '2999-01-01 00:00:00+00');
    assert.equal(future.status, 2);
    assert.match(future.stderr, /is in the future/);
    assert.equal(restore('latest').status, 2);
  });

  it('picks the newest verified backup that ENDED before the target', () => {
    const pick = (target) =>
      /base backup (\S+)/.exec(restore('--dry-run', 'latest', target).stdout)?.[1];
    // 10:30 is inside the 10:00 backup's run: the 09:00 one is the newest usable.
    assert.equal(pick('2026-11-27 10:30:00+00'), '20261127T090000Z');
    assert.equal(pick('2026-11-27T10:40:00.000001Z'), '20261127T100000Z');
    // The 11:00 backup was never verified.
    assert.equal(pick('2026-11-27 12:00:00+00'), '20261127T100000Z');
    // Offsets count: 11:30+01:00 is 10:30 UTC.
    assert.equal(pick('2026-11-27 11:30:00+01:00'), '20261127T090000Z');
    const none = restore('--dry-run', 'latest', '2026-11-27 09:10:00+00');
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no verified backup in .* ended before 2026-11-27 09:10:00\+00/);
  });

  it('refuses a named backup that ended after the target, was never verified, or does not exist', () => {
    const late = restore('--dry-run', '20261127T100000Z', '2026-11-27 10:30:00+00');
    assert.equal(late.status, 1);
    assert.match(late.stderr, /ended at 2026-11-27T10:40:00.000Z, not before/);
    const unverified = restore('--dry-run', '20261127T110000Z', '2026-11-27 12:00:00+00');
    assert.equal(unverified.status, 1);
    assert.match(unverified.stderr, /was never verified/);
    const missing = restore('--dry-run', '../etc', '2026-11-27 12:00:00+00');
    assert.equal(missing.status, 2);
    assert.equal(restore('--dry-run', '20261127T090000Z', '2026-11-27 12:00:00+00').status, 0);
  });
});
