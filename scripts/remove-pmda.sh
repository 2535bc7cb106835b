#!/usr/bin/env bash
# Run the installed PMDA's Remove: pmcd.conf and the PMNS lose hostcache.
set -eo pipefail
set +u; . /etc/pcp.env
dir="$PCP_PMDAS_DIR/hostcache"
if [ ! -x "$dir/Remove" ]; then
  echo "hostcache PMDA is not installed in $dir"
  exit 0
fi
cd "$dir"
./Remove </dev/null
