#!/usr/bin/env bash
# Install PCP from Debian's packages and start pmcd, on machines without
# systemd too (see apt-install.sh).
set -eo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "install-pcp: must run as root" >&2
  exit 1
fi

if ! command -v pmcd >/dev/null 2>&1 && [ ! -x /usr/libexec/pcp/bin/pmcd ] && [ ! -x /usr/lib/pcp/bin/pmcd ]; then
  "$(dirname "$0")/apt-install.sh" pcp
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
