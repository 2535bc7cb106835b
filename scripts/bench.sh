#!/usr/bin/env bash
# make bench: measure pmdahostcache against pmdalinux in one run and write
# docs/performance.md. Needs root: it installs PCP's client library and the
# sample PMDA (the end-to-end floor) if missing, and installs hostcache.
set -eo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
GO=${GO:-go}

scripts/install-pcp.sh
need=()
[ -f /usr/include/pcp/pmapi.h ] || need+=(libpcp3-dev)
[ -f /usr/include/pcp/pmda.h ] || need+=(libpcp-pmda3-dev)
command -v make >/dev/null || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
set +u; . /etc/pcp.env
if ! pmprobe sample.long.one 2>/dev/null | grep -q ' 1$'; then
  (cd "$PCP_PMDAS_DIR/sample" && ./Install </dev/null >/dev/null)
fi

mkdir -p bin docs
$GO build -o bin/pmdahostcache ./cmd/pmdahostcache
$GO build -o bin/bench ./tools/bench
gcc -O2 -Wall -o bin/fetchloop tools/fetchloop/fetchloop.c -lpcp
gcc -O2 -Wall -o bin/procfetch tools/bench/procfetch/procfetch.c -lpcp
gcc -O2 -Wall -o bin/echoagent tools/echoagent/echoagent.c
gcc -O2 -Wall -o bin/ticker tools/echoagent/ticker.c
scripts/install-pmda.sh bin/pmdahostcache >/dev/null
sleep 3

out=docs/performance.md
{
  bin/bench targets -linux "$PCP_PMDAS_DIR/linux/pmdalinux"
  echo
  echo '## go test -bench (fetch path: decode FETCH, encode RESULT from a snapshot)'
  echo
  echo '```'
  $GO test -run '^$' -bench . -benchmem ./pmda/ | grep -E '^(Benchmark|goos|cpu)'
  echo '```'
  echo
  bin/bench scale
  echo
  bin/bench collectors
  echo
  bin/bench stall
  echo
  bin/bench record
  echo
  bin/bench readers
  echo
  bin/bench standin
  echo
  bin/bench procs
} | tee "$out.new"
mv "$out.new" "$out"
echo "wrote $out"
