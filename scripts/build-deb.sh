#!/usr/bin/env bash
# make deb: build a Debian package of the agent with dpkg-deb, into bin/.
# The paths are Debian's PCP paths; the maintainer scripts in
# packaging/debian add the agent to pmcd through its Install and take it
# out through Remove, as PCP's own agent packages do.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
GO=${GO:-go}

version=${VERSION:-0.1.0+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short HEAD)-1}
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
pmda=$root/var/lib/pcp/pmdas/hostcache
doc=$root/usr/share/doc/pmdahostcache

install -d -m 0755 "$pmda/pmlogconf" "$pmda/pmieconf" "$root/etc/pcp/pmrep" \
  "$root/usr/share/man/man1" "$doc/examples" "$root/DEBIAN"
# Linked against the C library (for user lookups, as Debian wants a
# binary linked), position-independent with read-only relocations as
# Debian hardens its binaries, stripped, with reproducible paths.
CGO_ENABLED=1 $GO build -trimpath -buildmode=pie -ldflags "-s -w -linkmode=external -extldflags=-Wl,-z,relro,-z,now" -o "$pmda/pmdahostcache" ./cmd/pmdahostcache
chmod 0755 "$pmda/pmdahostcache"
install -m 0755 Install Remove "$pmda/"
install -m 0644 standin.sh domain.h pmns root "$pmda/"
cat help/*.help >"$pmda/help"
chmod 0644 "$pmda/help"
install -m 0644 pmlogconf/* "$pmda/pmlogconf/"
install -m 0644 pmieconf/* "$pmda/pmieconf/"
# The pmrep views are the package's own configuration file, not Install's.
install -m 0644 pmrep/hostcache.conf "$root/etc/pcp/pmrep/hostcache.conf"
gzip -9n <man/pmdahostcache.1 >"$root/usr/share/man/man1/pmdahostcache.1.gz"
install -m 0644 hostcache.conf "$doc/examples/hostcache.conf"
install -m 0644 packaging/debian/copyright "$doc/copyright"
install -d -m 0755 "$root/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/pmdahostcache"
date=$(git log -1 --format=%cd --date=format:'%a, %d %b %Y %H:%M:%S %z')
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$date/" packaging/debian/changelog | gzip -9n >"$doc/changelog.Debian.gz"
chmod 0644 "$root/usr/share/man/man1/pmdahostcache.1.gz" "$doc/changelog.Debian.gz"

install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$root/DEBIAN/"
install -m 0644 packaging/debian/conffiles "$root/DEBIAN/"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
# The newest C library symbol version the binary needs.
glibc=$(objdump -T "$pmda/pmdahostcache" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@GLIBC@/$glibc/" \
  packaging/debian/control.in >"$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
  xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p bin
deb=bin/pmdahostcache_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
