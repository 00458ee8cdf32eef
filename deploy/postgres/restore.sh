#!/usr/bin/env bash
# Point-in-time restore of Grove's database into an EMPTY data directory (a fresh volume):
#
#   restore.sh <backup> <target time>
#   e.g. podman run --rm -it -v grove_grove-restored:/var/lib/postgresql/data \
#          -v grove_grove-backups:/var/lib/postgresql/backups:ro -v grove_grove-wal:/var/lib/postgresql/archive:ro \
#          -e POSTGRES_PASSWORD=… grove-postgres restore.sh latest '2026-11-27 09:30:00+00'
#
# <backup>: a directory name under /var/lib/postgresql/backups (backup.sh's UTC stamps) or
# `latest` (the newest backup older than the target). PostgreSQL replays the archived WAL up to the
# target time (recovery_target_time, inclusive), promotes, and keeps serving on 5432 with WAL
# archiving off, so the restored copy never writes into the live archive. Check it, then point
# DATABASE_URL at it or copy it back (docs/operations.md).
set -euo pipefail
BACKUPS=/var/lib/postgresql/backups
ARCHIVE=/var/lib/postgresql/archive
backup=${1:?usage: restore.sh <backup|latest> <target time>}
target=${2:?usage: restore.sh <backup|latest> <target time>}

if [ -s "$PGDATA/PG_VERSION" ]; then
  echo "restore: $PGDATA is not empty; restore into a fresh volume" >&2
  exit 1
fi
if [ "$backup" = latest ]; then
  target_stamp=$(date -u -d "$target" +%Y%m%dT%H%M%SZ)
  backup=$(find "$BACKUPS" -mindepth 1 -maxdepth 1 -type d -name '2*Z' -printf '%f\n' | sort |
    awk -v t="$target_stamp" '$0 <= t' | tail -1)
  [ -n "$backup" ] || { echo "restore: no backup older than $target" >&2; exit 1; }
fi
echo "restore: base backup $backup, replaying WAL to $target"
tar -xzf "$BACKUPS/$backup/base.tar.gz" -C "$PGDATA"
tar -xzf "$BACKUPS/$backup/pg_wal.tar.gz" -C "$PGDATA/pg_wal"
chmod 700 "$PGDATA"
cat >>"$PGDATA/postgresql.auto.conf" <<CONF
restore_command = 'cp $ARCHIVE/%f %p'
recovery_target_time = '$target'
recovery_target_action = 'promote'
CONF
touch "$PGDATA/recovery.signal"
exec postgres -c listen_addresses='*' -c archive_mode=off
