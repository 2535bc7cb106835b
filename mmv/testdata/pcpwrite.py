"""Write MMV files with PCP's own libpcp_mmv and print what they hold.

Usage: pcpwrite.py DIR. Writes DIR/v1 through the pcp.mmv binding and
DIR/v2, DIR/v3 through libpcp_mmv's registry calls (long names need
version 2, labels version 3), then prints one JSON object describing every
file: header, indoms, metrics, values and labels as written.
"""
import ctypes
import json
import os
import sys

from pcp import mmv
from pcp.pmapi import pmUnits, pmAtomValue

LIB = mmv.LIBPCP_MMV
T_I32, T_U32, T_I64, T_U64, T_FLOAT, T_DOUBLE, T_STRING, T_ELAPSED = 0, 1, 2, 3, 4, 5, 6, 9
COUNTER, INSTANT, DISCRETE = 1, 3, 4
NOINDOM = 0xFFFFFFFF


def packed(units):
    """pmUnits as the native word the file holds."""
    return int.from_bytes(bytes(units), sys.byteorder)


def metric_json(name, item, typ, sem, units, indom, short, long):
    return {"name": name, "item": item, "type": typ, "sem": sem, "units": packed(units),
            "indom": indom if indom else NOINDOM, "short": short, "long": long}


INSTANCES = [(0, "north"), (7, "south"), (12, "far_east")]
BYTES = pmUnits(1, 0, 0, 0, 0, 0)          # bytes
MSEC = pmUnits(0, 1, 0, 0, 2, 0)           # milliseconds
PER_SEC = pmUnits(0, -1, 1, 0, 3, 0)       # count per second

# (name, item, type, semantics, units, indom, short, long, values by instance)
METRICS = [
    ("requests", 1, T_U64, COUNTER, pmUnits(0, 0, 1, 0, 0, 0), 3, "Requests served",
     "Requests served per region since start.", {"north": 11, "south": 22, "far_east": 33}),
    ("queue.depth", 2, T_I32, INSTANT, pmUnits(), 0, "Queue depth", "", {"": -5}),
    ("heap.bytes", 3, T_U32, INSTANT, BYTES, 0, "", "", {"": 4000000}),
    ("balance", 4, T_I64, DISCRETE, pmUnits(), 0, "", "", {"": -123456789012}),
    ("rate", 5, T_FLOAT, INSTANT, PER_SEC, 0, "", "", {"": 2.5}),
    ("latency", 6, T_DOUBLE, INSTANT, MSEC, 3, "Latency", "", {"north": 0.125, "south": 7.5, "far_east": 1e6}),
    ("version", 7, T_STRING, DISCRETE, pmUnits(), 0, "Build", "", {"": "1.2.3"}),
    ("busy", 8, T_ELAPSED, COUNTER, pmUnits(), 0, "", "", {"": 987654}),
]


def set_values(addr, name, values):
    for inst, value in values.items():
        av = LIB.mmv_lookup_value_desc(addr, name.encode(), inst.encode() if inst else None)
        if not av:
            raise SystemExit("no value for %s[%s]" % (name, inst))
        if isinstance(value, str):
            LIB.mmv_set_string(addr, av, value.encode(), len(value))
        else:
            LIB.mmv_set_value(addr, av, float(value))


def write_v1(path):
    """Through the pcp.mmv binding, which writes version 1."""
    indom = mmv.mmv_indom(serial=3, shorttext="Regions")
    indom.helptext = b"Regions the service answers for."
    indom.set_instances([mmv.mmv_instance(i, n) for i, n in INSTANCES])
    metrics = []
    for name, item, typ, sem, units, ind, short, long, _ in METRICS:
        m = mmv.mmv_metric(name=name, item=item, typeof=typ, semantics=sem,
                           dimension=units, indom=ind, shorttext=short or None)
        m.semantics, m.dimension = sem, units     # the binding leaves them unset
        m.shorttext = short.encode() if short else None
        m.helptext = long.encode() if long else None
        metrics.append(m)
    values = mmv.MemoryMappedValues(path, flags=0, cluster=21)
    values.add_indoms([indom])
    values.add_metrics(metrics)
    values.start()
    for name, *_, vals in METRICS:
        set_values(values._handle, name, vals)
    return describe(1, 21, METRICS, "Regions", "Regions the service answers for.", [])


def registry(path, version):
    """Through libpcp_mmv's registry calls: long names and labels."""
    declare()
    keep = []   # the registry keeps pointers to these until start

    def b(s):
        keep.append(s.encode() if s else None)
        return keep[-1]
    reg = LIB.mmv_stats_registry(b(path), 22, 0)
    check(LIB.mmv_stats_add_indom(reg, 3, b("Regions"), b("Regions the service answers for.")))
    for i, n in INSTANCES:
        # libpcp_mmv 6.0.3 adds the instance yet returns -1 (its search
        # loop never stops at the domain); the file shows what it did.
        LIB.mmv_stats_add_instance(reg, 3, i, b(n))
    metrics = list(METRICS)
    if version == 2:
        long_name = "a.name.longer.than.sixty.four.bytes.needs.version.two.of.the.format"
        metrics[1] = (long_name,) + METRICS[1][1:]
    for name, item, typ, sem, units, ind, short, long, _ in metrics:
        check(LIB.mmv_stats_add_metric(reg, b(name), item, typ, sem, units, ind, b(short), b(long)))
    labels = []
    if version == 3:
        labels = add_labels(reg, b)
    addr = LIB.mmv_stats_start(reg)
    if not addr:
        raise SystemExit("mmv_stats_start failed for " + path)
    for name, *_, vals in metrics:
        set_values(addr, name, vals)
    return describe(version, 22, metrics, "Regions", "Regions the service answers for.", labels)


def declare():
    """Argument types of the registry calls, which the binding lacks."""
    P, I, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    LIB.mmv_stats_registry.restype = P
    LIB.mmv_stats_registry.argtypes = [S, I, I]
    LIB.mmv_stats_start.restype = P
    LIB.mmv_stats_start.argtypes = [P]
    LIB.mmv_stats_add_indom.argtypes = [P, I, S, S]
    LIB.mmv_stats_add_instance.argtypes = [P, I, I, S]
    LIB.mmv_stats_add_metric.argtypes = [P, S, I, I, I, pmUnits, I, S, S]
    LIB.mmv_stats_add_registry_label.argtypes = [P, S, S, I, I]
    LIB.mmv_stats_add_metric_label.argtypes = [P, I, S, S, I, I]
    LIB.mmv_stats_add_indom_label.argtypes = [P, I, S, S, I, I]
    LIB.mmv_stats_add_instance_label.argtypes = [P, I, I, S, S, I, I]


def add_labels(reg, b):
    STRING, NUMBER, BOOLEAN = 1, 2, 3
    check(LIB.mmv_stats_add_registry_label(reg, b("service"), b('"web"'), STRING, 0))
    check(LIB.mmv_stats_add_metric_label(reg, 6, b("quantile"), b("99"), NUMBER, 1))
    check(LIB.mmv_stats_add_indom_label(reg, 3, b("geo"), b("true"), BOOLEAN, 0))
    check(LIB.mmv_stats_add_instance_label(reg, 3, 7, b("zone"), b('"s1"'), STRING, 0))
    return [
        {"kind": 8, "identity": 22, "instance": -1, "name": "service", "value": '"web"', "optional": False},
        {"kind": 16, "identity": 6, "instance": -1, "name": "quantile", "value": "99", "optional": True},
        {"kind": 4, "identity": 3, "instance": -1, "name": "geo", "value": "true", "optional": False},
        {"kind": 32, "identity": 3, "instance": 7, "name": "zone", "value": '"s1"', "optional": False},
    ]


def check(sts):
    if sts != 0:
        raise SystemExit("libpcp_mmv refused a definition: %d" % sts)


def describe(version, cluster, metrics, ishort, ilong, labels):
    return {
        "version": version, "cluster": cluster, "pid": os.getpid(),
        "indoms": [{"serial": 3, "short": ishort, "long": ilong,
                    "instances": [{"id": i, "name": n} for i, n in INSTANCES]}],
        "metrics": [metric_json(*m[:8]) for m in metrics],
        "values": [{"metric": m[0], "inst": inst, "value": v} for m in metrics for inst, v in m[8].items()],
        "labels": labels,
    }


def main():
    out = sys.argv[1]
    files = {"v1": write_v1(os.path.join(out, "v1"))}
    for v in (2, 3):
        files["v%d" % v] = registry(os.path.join(out, "v%d" % v), v)
    json.dump(files, sys.stdout)


main()
