#!/usr/bin/env bash
# Grove's backup service (docker-compose.yml `backup`, the `postgres` image): a full base backup
# with pg_basebackup at start and every BACKUP_INTERVAL_SECONDS (default 86400), kept
# BACKUP_RETAIN deep (default 7); PostgreSQL itself archives every WAL segment to the shared
# archive volume (deploy/postgres/entrypoint.sh), so any moment since the oldest kept backup can be
# restored (deploy/postgres/restore.sh). WAL older than the oldest kept backup is removed with
# pg_archivecleanup. `backup.sh --once` takes one backup and exits (the restore drill).
#
# Environment: PGHOST, PGUSER, PGPASSWORD (the server's superuser: base backups need replication).
set -euo pipefail
BACKUPS=/var/lib/postgresql/backups
ARCHIVE=/var/lib/postgresql/archive
INTERVAL=${BACKUP_INTERVAL_SECONDS:-86400}
RETAIN=${BACKUP_RETAIN:-7}
export PGDATABASE=${PGDATABASE:-postgres}

log() { echo "backup: $*"; }

take_backup() {
  until pg_isready -q; do sleep 1; done
  local stamp dir
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  dir="$BACKUPS/$stamp"
  rm -rf "$dir.partial"
  pg_basebackup -D "$dir.partial" -Ft -z -X stream -c fast -l "grove $stamp"
  # The first WAL segment this backup needs: everything older is only needed by older backups.
  local start_lsn
  start_lsn=$(sed -n 's/.*"Start-LSN": *"\([0-9A-F/]*\)".*/\1/p' "$dir.partial/backup_manifest" | head -1)
  psql -Atqc "SELECT pg_walfile_name('$start_lsn')" >"$dir.partial/START_WAL"
  mv "$dir.partial" "$dir"
  log "full backup $dir (starts at WAL $(cat "$dir/START_WAL"))"
  # Make the backup's own WAL reach the archive now rather than at the next archive_timeout.
  psql -Atqc 'SELECT pg_switch_wal()' >/dev/null
}

prune() {
  mapfile -t all < <(find "$BACKUPS" -mindepth 1 -maxdepth 1 -type d -name '2*Z' | sort)
  local excess=$((${#all[@]} - RETAIN))
  for ((i = 0; i < excess; i++)); do
    rm -rf "${all[$i]}"
    log "removed ${all[$i]} (BACKUP_RETAIN=$RETAIN)"
  done
  local oldest
  oldest=$(find "$BACKUPS" -mindepth 1 -maxdepth 1 -type d -name '2*Z' | sort | head -1)
  [ -n "$oldest" ] && pg_archivecleanup "$ARCHIVE" "$(cat "$oldest/START_WAL")"
}

take_backup
prune
[ "${1:-}" = "--once" ] && exit 0
while sleep "$INTERVAL"; do
  take_backup || log "backup failed; next try in ${INTERVAL}s"
  prune
done
