#!/usr/bin/env bash
# The Debian base image for machines that reach no image registry: debootstrap a Debian root file system
# from the apt mirror this machine already uses, then `docker import` it. Built once; an existing tag is
# reused (pass --rebuild to make it again). Needs root, debootstrap and a running Docker daemon.
#
#   docker/base-image.sh                  # -> digsite-base:bookworm
#   docker build --build-arg BASE=digsite-base:bookworm ...   (see docker/README.md)
#
# The image holds what both Digsite images need on top of a minimal Debian: python3 with venv and
# ca-certificates for the application image, PostgreSQL for the database image.
set -euo pipefail

tag=${DIGSITE_BASE_IMAGE:-digsite-base:bookworm}
suite=${DIGSITE_DEBIAN_SUITE:-bookworm}
packages=python3,python3-venv,ca-certificates,postgresql

fail() { echo "base-image: $*" >&2; exit 1; }

if [ "${1:-}" != "--rebuild" ] && docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base-image: $tag is present"
  exit 0
fi
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
[ "$(id -u)" -eq 0 ] || fail "debootstrap needs root"

# The mirror: DIGSITE_DEBIAN_MIRROR, else the first Debian archive in this machine's apt sources.
mirror=${DIGSITE_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'
    } | grep -E '/debian/?$' | head -n 1
  ) || true
fi
[ -n "$mirror" ] || fail "no Debian mirror in the apt sources: set DIGSITE_DEBIAN_MIRROR"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
echo "base-image: debootstrap $suite from $mirror (with $packages)"
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" >"$root.log" 2>&1 \
  || { tail -n 20 "$root.log" >&2; rm -f "$root.log"; fail "debootstrap failed"; }
rm -f "$root.log"

# The database image makes its own cluster at its first start: drop the one the package made.
for conf in "$root"/etc/postgresql/*/main; do
  [ -d "$conf" ] || continue
  version=$(basename "$(dirname "$conf")")
  rm -rf "$conf" "$root/var/lib/postgresql/$version/main"
done
echo "deb $mirror $suite main" >"$root/etc/apt/sources.list"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/* "$root"/var/log/*.log

tar --numeric-owner -C "$root" -c . | docker import \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' \
  --message "debootstrap $suite ($packages)" - "$tag" >/dev/null
echo "base-image: built $tag"
