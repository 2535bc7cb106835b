#!/usr/bin/env bash
# make uninstall: run the installed PMDA's Remove (pmcd.conf and the PMNS
# lose hostcache), then take away what scripts/install-pmda.sh put in
# place, but for the administrator's hostcache.conf. A PMDA a package
# installed is the package's to remove (dpkg -r pmdahostcache).
set -eo pipefail
set +u; . /etc/pcp.env
dir="$PCP_PMDAS_DIR/hostcache"
if dpkg -S "$dir/pmdahostcache" >/dev/null 2>&1; then
  echo "the hostcache PMDA in $dir belongs to a package: dpkg -r pmdahostcache" >&2
  exit 1
fi
if [ ! -x "$dir/Remove" ]; then
  echo "hostcache PMDA is not installed in $dir"
  exit 0
fi
(cd "$dir" && ./Remove </dev/null)
find "$dir" -mindepth 1 -maxdepth 1 ! -name hostcache.conf -exec rm -rf {} +
rmdir "$dir" 2>/dev/null || true
rm -f /usr/local/share/man/man1/pmdahostcache.1
