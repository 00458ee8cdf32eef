#!/usr/bin/env bash
# Grove's backup service (docker-compose.yml `backup`, the `postgres` image): a full base backup
# with pg_basebackup at start and every BACKUP_INTERVAL_SECONDS (default 86400), the newest
# BACKUP_RETAIN (default 7) verified ones kept; PostgreSQL itself archives every WAL segment to the
# shared archive volume (deploy/postgres/archive-wal.sh), so any moment since the oldest kept backup
# ended can be restored (deploy/postgres/restore.sh). `backup.sh --once` runs one backup and exits
# (0 when it was verified and kept).
#
# A backup is kept only when every step succeeded: pg_basebackup writes into a temporary folder
# (.tmp-<stamp>), the server's clock gives its end, pg_verifybackup checks the unpacked copy against
# its manifest (every file's checksum, every WAL record it needs), and only then is the folder
# renamed, in one step, to <stamp> (UTC, e.g. 20261127T093000Z) with these files beside the tars:
#   START_WAL   the first archived WAL segment it needs (older segments are only for older backups)
#   END_EPOCH   when it ended, by the server's clock: seconds since 1970 (6 decimals); a restore
#               target must be later
#   ENDED_AT    the same moment, readable (UTC)
#   VERIFIED    pg_verifybackup's verdict and when
# Any failed step removes the temporary folder, keeps every earlier backup, writes the reason to
# .last-failure and retries after BACKUP_RETRY_SECONDS (default 600, at most the interval);
# backup-health.sh reports the service unhealthy until a backup succeeds again. Pruning runs only
# after a verified backup and keeps the newest BACKUP_RETAIN verified ones; WAL older than the
# oldest kept one is removed with pg_archivecleanup.
#
# Environment: PGHOST, PGUSER, PGPASSWORD (the server's superuser: base backups need replication);
# BACKUP_MAX_RATE (optional, pg_basebackup --max-rate, e.g. 20M: spares the server's disk; 0 or
# empty: unthrottled).
#
# No `set -e`: bash ignores it inside any function called from `if`, `&&` or `||`, which is how a
# failed pg_basebackup once produced a "full backup". Every command's status is checked instead.
set -uo pipefail
BACKUPS=${GROVE_BACKUPS_DIR:-/var/lib/postgresql/backups}
ARCHIVE=${WAL_ARCHIVE_DIR:-/var/lib/postgresql/archive}
INTERVAL=${BACKUP_INTERVAL_SECONDS:-86400}
RETAIN=${BACKUP_RETAIN:-7}
RETRY=${BACKUP_RETRY_SECONDS:-600}
MAX_RATE=${BACKUP_MAX_RATE:-}
FAILURE="$BACKUPS/.last-failure"
export PGDATABASE=${PGDATABASE:-postgres}
for setting in INTERVAL RETAIN RETRY; do
  [[ "${!setting}" =~ ^[1-9][0-9]*$ ]] || { echo "backup: $setting must be a whole number ≥ 1" >&2; exit 1; }
done
[ "$RETRY" -le "$INTERVAL" ] || RETRY=$INTERVAL

log() { echo "backup: $*"; }
# The reason of the step that failed (written to .last-failure).
reason=''
fail() {
  reason="$*"
  echo "backup: FAILED: $*" >&2
  return 1
}

# Newest last: the promoted backups (folders named by their UTC stamp) that carry VERIFIED.
verified_backups() {
  local dir
  for dir in "$BACKUPS"/2*Z; do
    [ -d "$dir" ] && [ -s "$dir/VERIFIED" ] && [ -s "$dir/END_EPOCH" ] && [ -s "$dir/START_WAL" ] &&
      echo "$dir"
  done
}

wait_for_server() {
  local i
  for ((i = 0; i < 300; i++)); do
    pg_isready -q && return 0
    sleep 1
  done
  fail "the server did not accept connections within 300 s"
}

# Unpacks <tmp>'s tars into a scratch folder and runs pg_verifybackup against <tmp>'s manifest
# (PostgreSQL 17's pg_verifybackup reads plain folders only). Writes <tmp>/VERIFIED.
verify_backup() {
  local tmp=$1 scratch=$2 verdict
  mkdir -p "$scratch/pg_wal" || { fail "could not create $scratch"; return 1; }
  tar -xzf "$tmp/base.tar.gz" -C "$scratch" || { fail "could not unpack base.tar.gz"; return 1; }
  tar -xzf "$tmp/pg_wal.tar.gz" -C "$scratch/pg_wal" || {
    fail "could not unpack pg_wal.tar.gz"
    return 1
  }
  if ! verdict=$(pg_verifybackup -m "$tmp/backup_manifest" "$scratch" 2>&1); then
    fail "pg_verifybackup: $verdict"
    return 1
  fi
  rm -rf "$scratch" || { fail "could not remove $scratch"; return 1; }
  printf '%s\n%s\n' "$verdict" "verified at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$tmp/VERIFIED" || {
    fail "could not write VERIFIED"
    return 1
  }
}

take_backup() {
  local stamp tmp start_lsn start_wal ended
  wait_for_server || return 1
  stamp=$(date -u +%Y%m%dT%H%M%SZ) || { fail "date"; return 1; }
  tmp="$BACKUPS/.tmp-$stamp"
  [ ! -e "$BACKUPS/$stamp" ] || { fail "$BACKUPS/$stamp already exists"; return 1; }
  log "taking backup $stamp into $tmp"
  local -a rate=()
  [ -z "$MAX_RATE" ] || [ "$MAX_RATE" = 0 ] || rate=(--max-rate "$MAX_RATE")
  pg_basebackup -D "$tmp" -Ft -z -X stream -c fast -l "grove $stamp" "${rate[@]}"
  local status=$?
  [ "$status" -eq 0 ] || { fail "pg_basebackup exited $status"; return 1; }
  # The moment it ended, by the server's clock (the one commit timestamps use).
  if ! ended=$(psql -XAtq -F ' ' -v ON_ERROR_STOP=1 -c "SELECT extract(epoch FROM clock_timestamp())::numeric(20, 6), to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'"); then
    fail "could not read the server's clock"
    return 1
  fi
  [[ "$ended" =~ ^[0-9]{10}\.[0-9]{6}\ [0-9-]{10}\ [0-9:.]{15}\+00$ ]] || {
    fail "unexpected end time '$ended'"
    return 1
  }
  printf '%s\n' "${ended%% *}" >"$tmp/END_EPOCH" && printf '%s\n' "${ended#* }" >"$tmp/ENDED_AT" ||
    { fail "could not write the end time"; return 1; }
  start_lsn=$(sed -n 's/.*"Start-LSN": *"\([0-9A-F/]*\)".*/\1/p' "$tmp/backup_manifest" | head -1)
  [ -n "$start_lsn" ] || { fail "no Start-LSN in $tmp/backup_manifest"; return 1; }
  if ! start_wal=$(psql -XAtq -v ON_ERROR_STOP=1 -c "SELECT pg_walfile_name('$start_lsn')") ||
    [ -z "$start_wal" ]; then
    fail "could not name the WAL segment of $start_lsn"
    return 1
  fi
  printf '%s\n' "$start_wal" >"$tmp/START_WAL" || { fail "could not write START_WAL"; return 1; }
  verify_backup "$tmp" "$BACKUPS/.verify-$stamp" || return 1
  sync "$tmp"/* || { fail "could not fsync $tmp"; return 1; }
  # The promotion: one rename, so a backup folder is either complete and verified or absent.
  mv -T "$tmp" "$BACKUPS/$stamp" || { fail "could not rename $tmp"; return 1; }
  sync "$BACKUPS" || { fail "could not fsync $BACKUPS"; return 1; }
  log "verified full backup $BACKUPS/$stamp (ended $(cat "$BACKUPS/$stamp/ENDED_AT"), starts at WAL $start_wal)"
  # Make the WAL written since reach the archive now rather than at the next archive_timeout.
  psql -XAtq -v ON_ERROR_STOP=1 -c 'SELECT pg_switch_wal()' >/dev/null || {
    fail "pg_switch_wal failed"
    return 1
  }
}

# Keeps the newest RETAIN verified backups and removes every other backup folder (never runs
# without a verified one), then the archived WAL only older backups needed.
prune() {
  local -a verified
  local dir kept oldest_wal first
  mapfile -t verified < <(verified_backups)
  [ "${#verified[@]}" -gt 0 ] || { fail "no verified backup to prune against"; return 1; }
  first=$((${#verified[@]} > RETAIN ? ${#verified[@]} - RETAIN : 0))
  kept=" ${verified[*]:$first} "
  for dir in "$BACKUPS"/2*Z; do
    [ -d "$dir" ] || continue
    [[ "$kept" == *" $dir "* ]] && continue
    rm -rf "$dir" || { fail "could not remove $dir"; return 1; }
    log "removed $dir (keeping the newest $RETAIN verified backups)"
  done
  oldest_wal=$(cat "${verified[$first]}/START_WAL") || {
    fail "could not read START_WAL"
    return 1
  }
  pg_archivecleanup "$ARCHIVE" "$oldest_wal" || { fail "pg_archivecleanup exited $?"; return 1; }
}

# One backup and its pruning, under the lock (a `--once` run and the service never overlap).
cycle() {
  flock 9 || { fail "could not lock $BACKUPS/.lock"; return 1; }
  # What a killed run left (its temporary and scratch folders): never a backup.
  rm -rf "$BACKUPS"/.tmp-* "$BACKUPS"/.verify-* || { fail "could not clear old temporary folders"; }
  local status=1
  if [ -z "$reason" ] && take_backup && prune; then status=0; fi
  rm -rf "$BACKUPS"/.tmp-* "$BACKUPS"/.verify-*
  flock -u 9
  return "$status"
}

run_cycle() {
  reason=''
  if cycle; then
    rm -f "$FAILURE"
    return 0
  fi
  printf '%s backup failed: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$reason" >"$FAILURE"
  return 1
}

[ -d "$BACKUPS" ] || { echo "backup: $BACKUPS is not a folder" >&2; exit 1; }
exec 9>>"$BACKUPS/.lock" || { echo "backup: cannot open $BACKUPS/.lock" >&2; exit 1; }
if [ "${1:-}" = "--once" ]; then
  run_cycle
  exit $?
fi
while true; do
  if run_cycle; then
    sleep "$INTERVAL"
  else
    log "next try in ${RETRY}s"
    sleep "$RETRY"
  fi
done
