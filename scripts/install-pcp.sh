#!/usr/bin/env bash
# Install PCP from Debian's packages and start pmcd, on machines without systemd.
# Debian's postinst calls systemctl; where systemd is not running we put a
# no-op systemctl first in PATH for the duration of the install only.
set -eo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "install-pcp: must run as root" >&2
  exit 1
fi

if ! command -v pmcd >/dev/null 2>&1 && [ ! -x /usr/libexec/pcp/bin/pmcd ]; then
  shim_dir=$(mktemp -d)
  if [ ! -d /run/systemd/system ]; then
    printf '#!/bin/sh\nexit 0\n' >"$shim_dir/systemctl"
    chmod +x "$shim_dir/systemctl"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # apt hands dpkg its own PATH (DPkg::Path), so the shim goes there too.
  apt-get install -y -qq \
    -o "DPkg::Path=$shim_dir:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    pcp >/dev/null
  rm -rf "$shim_dir"
fi

# pmcd.conf and PCP's paths come from /etc/pcp.conf.
. /etc/pcp.env
if ! pmprobe -h local: pmcd.version >/dev/null 2>&1; then
  if [ -d /run/systemd/system ]; then
    systemctl start pmcd
  else
    "$PCP_RC_DIR/pmcd" start >/dev/null
  fi
fi
for _ in $(seq 1 60); do
  pmprobe -h local: pmcd.version >/dev/null 2>&1 && exit 0
  sleep 1
done
echo "install-pcp: pmcd did not come up" >&2
exit 1
