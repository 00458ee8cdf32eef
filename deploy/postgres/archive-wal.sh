#!/usr/bin/env bash
# PostgreSQL's archive_command in Grove's `postgres` image (deploy/postgres/entrypoint.sh):
#
#   archive-wal.sh %p %f        (run by the archiver in the data directory)
#
# Copies one WAL segment (or .history / .backup file) into the archive volume
# (/var/lib/postgresql/archive, or WAL_ARCHIVE_DIR) following PostgreSQL's rules for an archive
# command (https://www.postgresql.org/docs/current/continuous-archiving.html#BACKUP-ARCHIVING-WAL):
#
#   - exit 0 only once the file is in the archive under its name AND on disk: the copy goes to a
#     temporary name (.<name>.tmp), is fsynced (`sync FILE`), linked to its name (a hard link: never
#     overwrites), and the directory is fsynced; PostgreSQL then recycles its own copy;
#   - a file of that name already archived with identical contents (a retry after a crash between
#     the copy and PostgreSQL's record of it): fsync it, exit 0;
#   - a file of that name with DIFFERENT contents (two servers writing into one archive): exit 1
#     and leave it alone: PostgreSQL keeps the segment and retries, and the log says why;
#   - any failure (a full volume, an I/O error): the temporary file is removed and the exit status
#     is 1 (never > 125, which would restart the archiver). An interrupted copy (the process or the
#     machine killed) leaves at most the temporary file, which the next attempt overwrites.
#
# Never exits 0 for a file that is not archived: every step's status is checked.
set -uo pipefail
src=${1:?usage: archive-wal.sh <path %p> <name %f>}
name=${2:?usage: archive-wal.sh <path %p> <name %f>}
dir=${WAL_ARCHIVE_DIR:-/var/lib/postgresql/archive}
dest="$dir/$name"
tmp="$dir/.$name.tmp"

fail() {
  echo "archive-wal: $name not archived: $*" >&2
  rm -f "$tmp"
  exit 1
}

case "$name" in
*/* | .* | '') fail "not a file name" ;;
esac
[ -r "$src" ] || fail "cannot read $src"

if [ -e "$dest" ]; then
  if cmp -s "$src" "$dest"; then
    # Already archived (a retry): make sure that copy is on disk before saying so.
    sync "$dest" || fail "could not fsync the archived copy $dest"
    sync "$dir" || fail "could not fsync $dir"
    exit 0
  fi
  fail "$dest already exists with different contents (another server writing into this archive?)"
fi

cp "$src" "$tmp" || fail "could not copy $src to $tmp"
sync "$tmp" || fail "could not fsync $tmp"
# A hard link never replaces an existing file (unlike mv): a copy that appeared meanwhile stays.
ln "$tmp" "$dest" || fail "could not link $tmp to $dest"
rm -f "$tmp" || fail "could not remove $tmp"
sync "$dir" || fail "could not fsync $dir"
exit 0
