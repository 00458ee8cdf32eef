#!/usr/bin/env bash
# Point-in-time restore of Grove's database into an EMPTY data directory (a fresh volume):
#
#   restore.sh [--dry-run] <backup|latest> <target time>
#   e.g. podman run --rm -it -v grove_grove-restored:/var/lib/postgresql/data \
#          -v grove_grove-backups:/var/lib/postgresql/backups:ro -v grove_grove-wal:/var/lib/postgresql/archive:ro \
#          -e POSTGRES_PASSWORD=… grove-postgres restore.sh latest '2026-11-27 09:30:00+00'
#
# <target time>: 'YYYY-MM-DD HH:MM:SS[.ffffff]' (or a T between date and time) followed by its UTC
# offset: +00, +05:30, -0800 or Z. Anything else, an impossible date, or a moment in the future is
# refused (exit 2) before anything is touched.
# <backup>: a folder under /var/lib/postgresql/backups (backup.sh's UTC stamps) or `latest`: the
# newest VERIFIED backup that ENDED before the target (one still running at the target cannot reach
# a consistent state by then). The backup is unpacked and checked with pg_verifybackup against its
# manifest before PostgreSQL starts; a failed check empties the data directory again and exits 1.
# --dry-run: print the backup it would use and exit.
#
# PostgreSQL replays the archived WAL up to the target time (recovery_target_time, inclusive),
# promotes, and keeps serving on 5432 with WAL archiving off, so the restored copy never writes into
# the live archive. Check it, then point DATABASE_URL at it or copy it back (docs/operations.md).
set -uo pipefail
BACKUPS=${GROVE_BACKUPS_DIR:-/var/lib/postgresql/backups}
ARCHIVE=${WAL_ARCHIVE_DIR:-/var/lib/postgresql/archive}
USAGE='usage: restore.sh [--dry-run] <backup|latest> <target time, e.g. 2026-11-27 09:30:00+00>'

refuse() {
  echo "restore: $*" >&2
  exit "${code:-1}"
}

dry_run=false
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=true
  shift
fi
[ $# -eq 2 ] || code=2 refuse "$USAGE"
backup=$1
target=$2

# A moment as seconds since 1970 with 6 decimals (date's or backup.sh's END_EPOCH), zero-padded to
# one width so that comparing the strings compares the moments; fails on anything else.
padded() {
  [[ "$1" =~ ^([0-9]{1,12})\.([0-9]{6})$ ]] || return 1
  printf '%012d.%s' "$((10#${BASH_REMATCH[1]}))" "${BASH_REMATCH[2]}"
}

# The target: a strict format, a real moment, not in the future.
TIME_FORMAT='^[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$'
[[ "$target" =~ $TIME_FORMAT ]] ||
  code=2 refuse "target time '$target' is not 'YYYY-MM-DD HH:MM:SS[.ffffff]' with a UTC offset (+00, +05:30 or Z), e.g. '2026-11-27 09:30:00+00'"
target_epoch=$(padded "$(date -u -d "$target" +%s.%6N 2>/dev/null)") ||
  code=2 refuse "target time '$target' is not a real moment (check the date and the time)"
now_epoch=$(padded "$(date -u +%s.%6N)") || refuse "cannot read the clock"
[[ "$target_epoch" < "$now_epoch" ]] ||
  code=2 refuse "target time '$target' is in the future"

# Whether folder $1 is a verified backup that ended before the target.
usable() {
  local dir="$BACKUPS/$1" ended
  [ -s "$dir/VERIFIED" ] && [ -s "$dir/backup_manifest" ] || return 1
  ended=$(padded "$(cat "$dir/END_EPOCH" 2>/dev/null)") || return 1
  [[ "$ended" < "$target_epoch" ]]
}

if [ "$backup" = latest ]; then
  chosen=''
  for dir in "$BACKUPS"/2*Z; do
    [ -d "$dir" ] && usable "${dir##*/}" && chosen=${dir##*/}
  done
  [ -n "$chosen" ] || refuse "no verified backup in $BACKUPS ended before $target"
  backup=$chosen
else
  [[ "$backup" =~ ^2[0-9]{7}T[0-9]{6}Z$ ]] && [ -d "$BACKUPS/$backup" ] ||
    code=2 refuse "no backup named '$backup' in $BACKUPS"
  [ -s "$BACKUPS/$backup/VERIFIED" ] || refuse "backup $backup was never verified"
  usable "$backup" ||
    refuse "backup $backup ended at $(cat "$BACKUPS/$backup/ENDED_AT" 2>/dev/null), not before $target"
fi
echo "restore: base backup $backup (ended $(cat "$BACKUPS/$backup/ENDED_AT")), replaying WAL to $target"
$dry_run && exit 0

if [ -s "$PGDATA/PG_VERSION" ] || [ -n "$(ls -A "$PGDATA" 2>/dev/null)" ]; then
  refuse "$PGDATA is not empty; restore into a fresh volume"
fi
# Empties the data directory again (it was empty before) and stops.
abandon() {
  find "$PGDATA" -mindepth 1 -delete
  refuse "$*; $PGDATA emptied again"
}
tar -xzf "$BACKUPS/$backup/base.tar.gz" -C "$PGDATA" || abandon "could not unpack base.tar.gz"
tar -xzf "$BACKUPS/$backup/pg_wal.tar.gz" -C "$PGDATA/pg_wal" || abandon "could not unpack pg_wal.tar.gz"
verdict=$(pg_verifybackup -m "$BACKUPS/$backup/backup_manifest" "$PGDATA" 2>&1) ||
  abandon "backup $backup failed verification: $verdict"
echo "restore: $verdict"
chmod 700 "$PGDATA" || abandon "could not chmod $PGDATA"
cat >>"$PGDATA/postgresql.auto.conf" <<CONF || abandon "could not write postgresql.auto.conf"
restore_command = 'cp $ARCHIVE/%f %p'
recovery_target_time = '$target'
recovery_target_action = 'promote'
CONF
touch "$PGDATA/recovery.signal" || abandon "could not write recovery.signal"
exec postgres -c listen_addresses='*' -c archive_mode=off
