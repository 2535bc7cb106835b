"""A small instrumented program: writes a live MMV file with PCP's pcp.mmv.

Usage: mmv_writer.py [--process] [--cluster N] NAME CONTROL_DIR

Creates $PCP_TMP_DIR/mmv/NAME (MMV_FLAG_PROCESS with --process, so that
readers drop it once this process exits; cluster N, 42 unless given: each
file's own, as pmdammv wants) holding:

  requests        u64 counter, grows steadily by RATE a second
  queue.depth     i32 instant, 10-14 by the wall-clock second
  region.requests u64 counter per region, 1, 2 and 3 times REGION_RATE
  region.latency  double instant per region, in milliseconds
  version         string

and runs until killed. Two control files in CONTROL_DIR steer it:

  burst  adds BURST to requests in one step and holds queue.depth at
         BURST_DEPTH for a second; the writer removes the file once done.
  hold   freezes every value while it exists; the writer creates "held"
         once frozen and removes it when it resumes.

Prints "ready" once the file is in place. Run with /usr/bin/python3,
whose path has PCP's Python modules.
"""
import argparse
import os
import time

import cmmv
from pcp import mmv
from pcp.pmapi import pmUnits

RATE = 100.0
REGION_RATE = 50.0
BURST = 5000
BURST_DEPTH = 900
TICK = 0.01
REGIONS = [(0, "north"), (7, "south"), (12, "far_east")]
COUNT = pmUnits(0, 0, 1, 0, 0, 0)
MSEC = pmUnits(0, 1, 0, 0, 2, 0)
NOUNITS = pmUnits(0, 0, 0, 0, 0, 0)

# (name, item, type, semantics, units, indom, one-line help)
METRICS = [
    ("requests", 1, cmmv.MMV_TYPE_U64, cmmv.MMV_SEM_COUNTER, COUNT, 0, "Requests served"),
    ("queue.depth", 2, cmmv.MMV_TYPE_I32, cmmv.MMV_SEM_INSTANT, COUNT, 0, "Requests waiting"),
    ("region.requests", 3, cmmv.MMV_TYPE_U64, cmmv.MMV_SEM_COUNTER, COUNT, 1, "Requests per region"),
    ("region.latency", 4, cmmv.MMV_TYPE_DOUBLE, cmmv.MMV_SEM_INSTANT, MSEC, 1, "Latency per region"),
    ("version", 5, cmmv.MMV_TYPE_STRING, cmmv.MMV_SEM_DISCRETE, NOUNITS, 0, "Build"),
]


def start(name, flags, cluster):
    """Declares the metrics and maps the file."""
    indom = mmv.mmv_indom(serial=1, shorttext="Regions")
    indom.set_instances([mmv.mmv_instance(i, n) for i, n in REGIONS])
    metrics = []
    for mname, item, typ, sem, units, ind, short in METRICS:
        m = mmv.mmv_metric(name=mname, item=item, typeof=typ, semantics=sem,
                           dimension=units, indom=ind, shorttext=short)
        # The binding leaves semantics and units unset, and copies the
        # one-line help into the long help.
        m.semantics, m.dimension = sem, units
        metrics.append(m)
    values = mmv.MemoryMappedValues(name, flags=flags, cluster=cluster)
    values.add_indoms([indom])
    values.add_metrics(metrics)
    values.start()
    if not values.started():
        raise SystemExit("mmv_stats_init failed for " + name)
    return values


class Writer:
    """Moves the values as the time passes and the control files say."""

    def __init__(self, values, control):
        self.values, self.control = values, control
        self.requests = values.lookup_mapping("requests", None)
        self.depth = values.lookup_mapping("queue.depth", None)
        self.region = [values.lookup_mapping("region.requests", n) for _, n in REGIONS]
        self.latency = [values.lookup_mapping("region.latency", n) for _, n in REGIONS]
        values.set_string(values.lookup_mapping("version", None), b"1.2.3")
        self.credit, self.region_credit = 0.0, [0.0] * len(REGIONS)
        self.burst_until = 0.0
        self.last = time.monotonic()
        self.step(self.last)

    def path(self, name):
        return os.path.join(self.control, name)

    def run(self):
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            if os.path.exists(self.path("hold")):
                self.hold()
                continue
            if os.path.exists(self.path("burst")):
                self.values.add(self.requests, BURST)
                self.burst_until = now + 1.0
                os.remove(self.path("burst"))
            self.grow(now)
            self.step(now)

    def hold(self):
        """Freezes the values until the hold file goes; the time held
        counts for nothing."""
        open(self.path("held"), "w").close()
        while os.path.exists(self.path("hold")):
            time.sleep(TICK)
        os.remove(self.path("held"))
        self.last = time.monotonic()

    def grow(self, now):
        """The counters' steady growth since the last tick, in whole steps."""
        elapsed, self.last = now - self.last, now
        self.credit += RATE * elapsed
        whole = int(self.credit)
        if whole:
            self.values.add(self.requests, whole)
            self.credit -= whole
        for i, mapping in enumerate(self.region):
            self.region_credit[i] += REGION_RATE * (i + 1) * elapsed
            whole = int(self.region_credit[i])
            if whole:
                self.values.add(mapping, whole)
                self.region_credit[i] -= whole

    def step(self, now):
        """The instants: they change once a wall-clock second."""
        second = int(time.time())
        depth = BURST_DEPTH if now < self.burst_until else 10 + second % 5
        self.values.set(self.depth, depth)
        for i, mapping in enumerate(self.latency):
            self.values.set(mapping, 0.25 * (i + 1) + (second % 4) / 8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--process", action="store_true")
    parser.add_argument("--cluster", type=int, default=42)
    parser.add_argument("name")
    parser.add_argument("control")
    args = parser.parse_args()
    flags = cmmv.MMV_FLAG_PROCESS if args.process else 0
    writer = Writer(start(args.name, flags, args.cluster), args.control)
    print("ready", flush=True)
    writer.run()


main()
