#!/usr/bin/env bash
# Install the built PMDA into $PCP_PMDAS_DIR/hostcache and run its Install.
# Usage: scripts/install-pmda.sh path/to/pmdahostcache [-S linux|proc|none]
# (the Install options: in pmdalinux's or pmdaproc's place, or beside them).
# PCP's locations come from /etc/pcp.conf (through pcp.env), never hard-coded.
set -eo pipefail

binary=${1:?usage: install-pmda.sh path/to/pmdahostcache}
top=$(cd "$(dirname "$0")/.." && pwd)
set +u; . /etc/pcp.env
dir="$PCP_PMDAS_DIR/hostcache"

mkdir -p "$dir"
install -m 0755 "$binary" "$dir/pmdahostcache.new"
mv -f "$dir/pmdahostcache.new" "$dir/pmdahostcache"
install -m 0755 "$top/Install" "$top/Remove" "$dir/"
install -m 0644 "$top/standin.sh" "$top/domain.h" "$top/pmns" "$top/root" "$dir/"
# An earlier stand-in's names in domain 60; hostcache's keep their own now.
rm -f "$dir/pmns.linux"
# The manual page, where man finds it.
mkdir -p /usr/local/share/man/man1
install -m 0644 "$top/man/pmdahostcache.1" /usr/local/share/man/man1/
mkdir -p "$dir/pmlogconf" "$dir/pmieconf" "$dir/pmrep"
install -m 0644 "$top"/pmlogconf/* "$dir/pmlogconf/"
install -m 0644 "$top"/pmieconf/* "$dir/pmieconf/"
install -m 0644 "$top"/pmrep/* "$dir/pmrep/"
# pmdaproc.sh wants one help source file named "help" beside Install.
cat "$top"/help/*.help >"$dir/help"
chmod 0644 "$dir/help"
if [ -f "$top/hostcache.conf" ] && [ ! -f "$dir/hostcache.conf" ]; then
  install -m 0644 "$top/hostcache.conf" "$dir/"
fi
cd "$dir"
./Install "${@:2}" </dev/null
