#!/usr/bin/env bash
# Install Debian packages on machines without systemd: the postinst scripts
# of pcp and redis-server call systemctl, which fails there, so a no-op
# systemctl goes first in the PATH apt hands dpkg (DPkg::Path; apt ignores
# PATH for dpkg) for the duration of the install only.
# Usage: scripts/apt-install.sh package...
set -eo pipefail
[ $# -gt 0 ] || exit 0
shim_dir=$(mktemp -d)
trap 'rm -rf "$shim_dir"' EXIT
if [ ! -d /run/systemd/system ]; then
  printf '#!/bin/sh\nexit 0\n' >"$shim_dir/systemctl"
  chmod +x "$shim_dir/systemctl"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq \
  -o "DPkg::Path=$shim_dir:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  "$@" >/dev/null
