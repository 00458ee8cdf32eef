#!/usr/bin/env bash
# The one base image every Grove image starts from: debian:trixie-slim.
#
#   tools/deploy/base-image.sh          # ensures docker.io/library/debian:trixie-slim exists locally
#
# Where a registry is reachable it is pulled like any image. Where none is (the CI machine), the
# same Debian 13 root file system is made from Debian's own packages with debootstrap
# (`--variant=minbase`, the variant Debian's slim images are cut from) and imported under the same
# name, so the Containerfile's `FROM debian:trixie-slim` finds it and never reaches for a registry.
set -euo pipefail
IMAGE=docker.io/library/debian:trixie-slim
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if podman image exists "$IMAGE"; then
  echo "base-image: $IMAGE present"
  exit 0
fi
if timeout 30 podman pull -q "$IMAGE" >/dev/null 2>&1; then
  echo "base-image: pulled $IMAGE"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "base-image: no registry and no debootstrap (apt-get install debootstrap)" >&2; exit 1; }
root=$(mktemp -d /tmp/grove-trixie.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "base-image: no registry reachable; debootstrap trixie from $MIRROR"
debootstrap --variant=minbase trixie "$root" "$MIRROR" >/tmp/grove-debootstrap.log 2>&1 || {
  tail -20 /tmp/grove-debootstrap.log >&2
  exit 1
}
# As Debian's slim images: no package lists or downloaded archives, no docs or man pages.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
tar --numeric-owner -C "$root" -c . | podman import --change 'CMD ["bash"]' - "$IMAGE" >/dev/null
echo "base-image: made $IMAGE from Debian packages"
