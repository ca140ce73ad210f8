#!/usr/bin/env bash
# Set-up on a fresh machine: the system tools the tests run (pytest and GNU patch for the
# benchmark scorer, tmux for the TUI test, Docker's daemon and debootstrap for the container
# tests, Chromium for the report's browser test; installed with apt-get when missing, through
# sudo unless root), then the pinned npm
# dependencies, the opencode binary included, then the Docker daemon and the test image.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=""
if ! python3 -c 'import pytest' >/dev/null 2>&1 && ! /usr/bin/python3 -c 'import pytest' >/dev/null 2>&1; then
  packages="python3-pytest"
fi
if ! command -v patch >/dev/null 2>&1; then
  packages="$packages patch"
fi
if ! command -v tmux >/dev/null 2>&1; then
  packages="$packages tmux"
fi
if ! command -v dockerd >/dev/null 2>&1; then
  packages="$packages docker.io"
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  packages="$packages debootstrap"
fi
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM_BIN:-}" ]; then
  packages="$packages chromium"
fi
if [ -n "$packages" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: please install$packages (pytest for python3, GNU patch, tmux, Docker, debootstrap, Chromium) and run again" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $packages
fi
npm ci
bash scripts/docker-test-image.sh
