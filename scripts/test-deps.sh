#!/usr/bin/env bash
# make test: install the Debian packages the tests drive and this machine
# lacks. As root they are installed (scripts/apt-install.sh); otherwise one
# line names what is missing and how to get it, and the status is 1.
# HOSTCACHE_TEST_DEPS_ABSENT="gcc ..." makes the check treat those commands
# or files as missing, to try the script without removing packages.
set -eo pipefail

# A command on PATH or an absolute file, and the Debian package that gives
# it. PCP itself (pmcd, pminfo, pmproxy, pmseries, pmrep, ...) comes from
# make install (scripts/install-pcp.sh).
deps='
gcc                       gcc           # cgo, which -race needs; the C fetch client
/usr/include/stdio.h      libc6-dev     # cgo links against the C library
objdump                   binutils      # make deb reads the C library version the agent needs
/usr/include/pcp/pmapi.h  libpcp3-dev   # the C client that fetches on whole seconds
/usr/include/pcp/pmda.h   libpcp-pmda3-dev  # the C loader that reads id files as pmdalinux does
git                       git           # make deb takes its version from the commit
redis-server              redis-server  # stores the series pmseries and pmproxy serve
lintian                   lintian       # checks the package make deb builds
man                       man-db        # finds the installed manual page
groff                     groff-base    # renders the manual page
'

present() {
  case " ${HOSTCACHE_TEST_DEPS_ABSENT:-} " in *" $1 "*) return 1 ;; esac
  case $1 in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

# check fills missing and packages with what is absent.
check() {
  missing=() packages=()
  local need package
  while read -r need package _; do
    [ -n "$need" ] || continue
    present "$need" && continue
    missing+=("$need")
    case " ${packages[*]} " in *" $package "*) ;; *) packages+=("$package") ;; esac
  done <<<"$deps"
}

check
[ ${#packages[@]} -gt 0 ] || exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "make test: missing ${missing[*]}; run make test as root, or as root: apt-get install -y ${packages[*]}" >&2
  exit 1
fi
echo "make test: installing ${packages[*]} for ${missing[*]}"
"$(dirname "$0")/apt-install.sh" "${packages[@]}"
HOSTCACHE_TEST_DEPS_ABSENT= check
if [ ${#missing[@]} -gt 0 ]; then
  echo "make test: still missing ${missing[*]} after installing ${packages[*]}" >&2
  exit 1
fi
