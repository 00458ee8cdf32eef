#!/usr/bin/env bash
# PostgreSQL 17 in Grove's `postgres` image (Containerfile). On an empty data directory: initdb
# with POSTGRES_USER as the superuser (password POSTGRES_PASSWORD, scram-sha-256), the database
# POSTGRES_DB, connections from the compose network by password only (replication too: the backup
# service's pg_basebackup). Every start: WAL archived to /var/lib/postgresql/archive (a volume the
# backup service shares) by archive-wal.sh (a temporary name, fsynced, then linked: an interrupted
# copy never blocks the next), at least every ARCHIVE_TIMEOUT_SECONDS (default 60) under write
# load, so a restore loses at most that much. Other commands (backup.sh, restore.sh, bash) run as given.
set -euo pipefail
if [ "${1:-}" != "postgres" ]; then exec "$@"; fi

: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
POSTGRES_USER=${POSTGRES_USER:-grove}
POSTGRES_DB=${POSTGRES_DB:-grove}
ARCHIVE=/var/lib/postgresql/archive

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  {
    echo "host all all all scram-sha-256"
    echo "host replication all all scram-sha-256"
  } >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  psql -v ON_ERROR_STOP=1 --username="$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres: initialised $PGDATA"
fi

# TCP keepalives (seconds): a client that vanished without closing its connections (an API replica
# killed, its host gone) is noticed within idle + interval × count = 25 s and its connections
# freed. Without them they stayed open for the kernel's default two hours, and three such
# replicas' pools filled max_connections ("too many clients", answered 503).
exec postgres -c listen_addresses='*' \
  -c wal_level=replica -c archive_mode=on \
  -c "archive_command=/usr/local/bin/archive-wal.sh %p %f" \
  -c "archive_timeout=${ARCHIVE_TIMEOUT_SECONDS:-60}" \
  -c max_connections="${POSTGRES_MAX_CONNECTIONS:-100}" \
  -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3
