#!/usr/bin/env bash
# The backup service's health check (docker-compose.yml `backup`): healthy only while the newest
# VERIFIED backup (deploy/postgres/backup.sh) ended less than 2 × BACKUP_INTERVAL_SECONDS ago and
# the latest attempt did not fail. Prints the reason either way; exit 0 healthy, 1 not.
set -uo pipefail
BACKUPS=${GROVE_BACKUPS_DIR:-/var/lib/postgresql/backups}
INTERVAL=${BACKUP_INTERVAL_SECONDS:-86400}

if [ -s "$BACKUPS/.last-failure" ]; then
  echo "unhealthy: $(cat "$BACKUPS/.last-failure")"
  exit 1
fi
newest=''
for dir in "$BACKUPS"/2*Z; do
  [ -d "$dir" ] && [ -s "$dir/VERIFIED" ] && [ -s "$dir/END_EPOCH" ] && newest=$dir
done
if [ -z "$newest" ]; then
  echo "unhealthy: no verified backup in $BACKUPS"
  exit 1
fi
if ! ended=$(cut -d. -f1 "$newest/END_EPOCH") || ! [[ "$ended" =~ ^[0-9]+$ ]]; then
  echo "unhealthy: $newest/END_EPOCH is unreadable"
  exit 1
fi
age=$(($(date +%s) - ended))
if [ "$age" -gt $((2 * INTERVAL)) ]; then
  echo "unhealthy: the newest verified backup, $newest, ended ${age} s ago (more than 2 × ${INTERVAL} s)"
  exit 1
fi
echo "healthy: newest verified backup $newest, ended ${age} s ago"
