#!/usr/bin/env bash
# The Docker daemon and the small image the `--env docker` tests run in, made here from
# Debian's packages (no registry image can be pulled on our machines): starts dockerd when
# none answers (vfs storage, no bridge or iptables: containers use the host's network), then
# builds opencode-rcm-test:bookworm with debootstrap (minbase + python3, pytest, git, patch)
# unless it exists. Root, or sudo. Mirror: RCM_DEBIAN_MIRROR (default deb.debian.org).
set -euo pipefail
IMAGE="${RCM_TEST_IMAGE:-opencode-rcm-test:bookworm}"
MIRROR="${RCM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

if ! $sudo docker info >/dev/null 2>&1; then
  log="${TMPDIR:-/tmp}/opencode-rcm-dockerd.log"
  $sudo setsid nohup dockerd --storage-driver=vfs --iptables=false --bridge=none >"$log" 2>&1 < /dev/null &
  for _ in $(seq 1 60); do
    if $sudo docker info >/dev/null 2>&1; then break; fi
    sleep 1
  done
  if ! $sudo docker info >/dev/null 2>&1; then
    echo "docker-test-image: dockerd did not start; its log: $log" >&2
    tail -20 "$log" >&2 || true
    exit 1
  fi
fi

if $sudo docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "docker-test-image: $IMAGE is there"
  exit 0
fi
rootfs="$(mktemp -d "${TMPDIR:-/tmp}/opencode-rcm-rootfs.XXXXXX")"
trap '$sudo rm -rf "$rootfs"' EXIT
echo "docker-test-image: building $IMAGE with debootstrap from $MIRROR (about two minutes)"
$sudo debootstrap --variant=minbase --include=python3,python3-pytest,git,patch bookworm "$rootfs" "$MIRROR" >/dev/null
$sudo tar -C "$rootfs" -c . | $sudo docker import - "$IMAGE" >/dev/null
echo "docker-test-image: built $IMAGE"
