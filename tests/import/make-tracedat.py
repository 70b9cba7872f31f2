#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write small trace.dat files by hand, in the layout trace-cmd gives them, and damaged copies.

trace.dat is trace-cmd's binary format (Documentation/trace-cmd/trace-cmd.dat.v6.5.txt and
.v7.5.txt in trace-cmd's sources; docs/import.md, "trace.dat", says what idlesim checks).
This script writes the same ten events (2 CPUs, two event formats) three ways:

  tiny-v6.dat   file version 6: headers, options, "flyrecord", the per-CPU table, the
                trace_clock text, then one 4096-byte ring-buffer page per CPU;
  tiny-v7.dat   file version 7: sections with ids, flags and sizes, two options sections,
                a BUFFER FLYRECORD section, the metadata strings;
  tiny-v7z.dat  the same with "zstd" compression: every metadata section and the CPU data
                compressed, as zstd frames of raw (stored) blocks, which any zstd decoder reads.

`idlesim import` must give tiny.expected for each, computed by hand from EVENTS: CPU 0 idle
from 2000 to 500000 ns after T0 (498000 ns), then a task runs (sched_switch), idle again from
601000 to 900000 (299000 ns); CPU 1 idle from 3000 to 700000 (697000 ns). No interrupt or
IPI event names a cause: each wakeup is "unknown", written as irq (traces/FORMAT.md).
They are the seed corpus of the fuzz_import_dat harness (tests/fuzz/fuzz_import_dat/, with a
mode byte in front) and the sources of the damaged cases of tests/import/invalid/dat-*
(each input with the expected-error it must give). The files are checked in; the tests do
not run this script (run it after changing it, and check `git diff`).
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = 4096
T0 = 1_000_000_000_000  # 1000 s

HEADER_PAGE = (b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n"
                b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")
COMMON = (b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          b"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          b"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")
CPU_IDLE_ID, SWITCH_ID = 21, 316
CPU_IDLE = (b"name: cpu_idle\nID: %d\nformat:\n" % CPU_IDLE_ID + COMMON +
            b"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
            b"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n\n"
            b"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
            b"(unsigned long)REC->cpu_id\n")
SCHED_SWITCH = (b"name: sched_switch\nID: %d\nformat:\n" % SWITCH_ID + COMMON +
                b"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
                b"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
                b"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
                b"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
                b"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
                b"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
                b"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
                b"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d ==> next_comm=%s "
                b"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
                b"REC->next_comm, REC->next_pid, REC->next_prio\n")
CMDLINES = b"100 taskA\n200 taskB\n"
CLOCK = b"local global counter uptime perf [mono] mono_raw boot\n"
EXIT = 0xFFFFFFFF

# (ns after T0, cpu, pid, event, fields)
EVENTS = [
    (1000, 0, 100, "switch", ("taskA", 100, "swapper/0", 0)),
    (2000, 0, 0, "idle", (2, 0)),
    (3000, 1, 0, "idle", (1, 1)),
    (500000, 0, 0, "idle", (EXIT, 0)),
    (501000, 0, 0, "switch", ("swapper/0", 0, "taskA", 100)),
    (600000, 0, 100, "switch", ("taskA", 100, "swapper/0", 0)),
    (601000, 0, 0, "idle", (1, 0)),
    (700000, 1, 0, "idle", (EXIT, 1)),
    (701000, 1, 0, "switch", ("swapper/1", 0, "taskB", 200)),
    (900000, 0, 0, "idle", (EXIT, 0)),
]


def payload(pid, kind, f):
    if kind == "idle":
        return struct.pack("<HBBiII", CPU_IDLE_ID, 1, 0, pid, *f)
    pc, pp, nc, np = f
    return struct.pack("<HBBi16siiq16sii", SWITCH_ID, 1, 0, pid, pc.encode(), pp, 120, 0,
                       nc.encode(), np, 120)


def page(cpu):
    """One ring-buffer page: u64 time stamp, u64 commit, then the events (type_len = words)."""
    data, last = b"", T0
    for t, c, pid, kind, f in EVENTS:
        if c != cpu:
            continue
        p = payload(pid, kind, f)
        delta = T0 + t - last
        last = T0 + t
        data += struct.pack("<I", (len(p) // 4) | (delta << 5)) + p
    return (struct.pack("<QQ", T0, len(data)) + data).ljust(PAGE, b"\0")


def s64(n):
    return struct.pack("<Q", n)


def s32(n):
    return struct.pack("<I", n)


def option(oid, data):
    return struct.pack("<HI", oid, len(data)) + data


def headers():
    return (b"header_page\0" + s64(len(HEADER_PAGE)) + HEADER_PAGE +
            b"header_event\0" + s64(len(HEADER_EVENT)) + HEADER_EVENT)


def events():
    return (s32(2) + b"power\0" + s32(1) + s64(len(CPU_IDLE)) + CPU_IDLE +
            b"sched\0" + s32(1) + s64(len(SCHED_SWITCH)) + SCHED_SWITCH)


def start(version):
    return b"\x17\x08Dtracing" + version + b"\0" + bytes([0, 8]) + s32(PAGE)


def v6():
    d = start(b"6") + headers() + s32(0) + events() + s32(0) + s32(0)
    d += s64(len(CMDLINES)) + CMDLINES + s32(2)
    d += b"options  \0"
    d += option(5, b"Linux tiny 6.1.0 #1 SMP x86_64\0")       # UNAME
    d += option(9, b"3.1.6\0")                                # VERSION
    d += option(2, b"CPU: 0\nentries: 6\noverrun: 0\n\0")      # CPUSTAT
    d += option(2, b"CPU: 1\nentries: 3\noverrun: 0\n\0")
    d += option(4, CLOCK + b"\0")                             # TRACECLOCK
    d += struct.pack("<H", 0)
    d += b"flyrecord\0"
    table_at = len(d)
    d += b"\0" * 32 + s64(len(CLOCK)) + CLOCK
    d = d.ljust((len(d) + PAGE - 1) // PAGE * PAGE, b"\0")
    offs = [len(d), len(d) + PAGE]
    d += page(0) + page(1)
    table = b"".join(s64(o) + s64(PAGE) for o in offs)
    return d[:table_at] + table + d[table_at + 32:]


# ---- version 7 ----

def zstd_raw(data):
    """A zstd frame holding `data` in raw blocks (no compression; single segment, 8-byte size)."""
    out = b"\x28\xb5\x2f\xfd" + bytes([0xE0]) + s64(len(data))
    chunks = [data[i:i + 65536] for i in range(0, len(data), 65536)] or [b""]
    for i, c in enumerate(chunks):
        last = i == len(chunks) - 1
        out += struct.pack("<I", (len(c) << 3) | last)[:3] + c
    return out


STRINGS = [b"headers", b"ftrace events", b"events format", b"kallsyms", b"printk",
           b"command lines", b"options", b"buffer flyrecord", b"strings"]


def desc(name):
    return sum(len(s) + 1 for s in STRINGS[:STRINGS.index(name)])


def section(sid, name, body, compress):
    if compress:
        z = zstd_raw(body)
        body, flags = s32(len(z)) + s32(len(body)) + z, 1
    else:
        flags = 0
    return struct.pack("<HHIQ", sid, flags, desc(name), len(body)) + body


def v7(compress):
    d = start(b"7") + (b"zstd\0" + b"1.5.4\0" if compress else b"none\0\0")
    opt_at = len(d)
    d += s64(0)  # the first options section's offset, set below
    meta = [(16, b"headers", headers()), (17, b"ftrace events", s32(0)),
            (18, b"events format", events()), (19, b"kallsyms", s32(0)),
            (20, b"printk", s32(0)), (21, b"command lines", s64(len(CMDLINES)) + CMDLINES)]
    at = {}
    for sid, name, body in meta:
        at[sid] = len(d)
        d += section(sid, name, body, compress)
    first = len(d)
    d = d[:opt_at] + s64(first) + d[opt_at + 8:]
    # the first options section: where the metadata is, the CPU count, then on to the second
    opts = b"".join(option(sid, s64(at[sid])) for sid in sorted(at))
    opts += option(8, s32(2)) + option(5, b"Linux tiny 6.1.0 #1 SMP x86_64\0")
    opts += option(9, b"3.1.6\0") + option(4, CLOCK + b"\0")
    second_done_at = len(d) + 16 + len(opts) + 6
    opts += option(0, s64(0))
    d += section(0, b"options", opts, False)
    # the BUFFER FLYRECORD section: padding to a page, then each CPU's data
    buf_at = len(d)
    head = len(d) + 16
    body = b"\0" * ((head + PAGE - 1) // PAGE * PAGE - head)
    cpus = []
    for cpu in range(2):
        off = head + len(body)
        if compress:
            z = zstd_raw(page(cpu))
            blob = s32(1) + s32(len(z)) + s32(PAGE) + z
            size = len(blob) - 4
            blob = blob.ljust((len(blob) + PAGE - 1) // PAGE * PAGE, b"\0")
        else:
            blob, size = page(cpu), PAGE
        cpus.append((cpu, off, size))
        body += blob
    d += struct.pack("<HHIQ", 3, 1 if compress else 0, desc(b"buffer flyrecord"), len(body))
    d += body
    second = len(d)
    d = d[:second_done_at] + s64(second) + d[second_done_at + 8:]
    buf = s64(buf_at) + b"\0" + b"mono\0" + s32(PAGE) + s32(len(cpus))
    buf += b"".join(s32(c) + s64(o) + s64(s) for c, o, s in cpus)
    d += section(0, b"options", option(3, buf) + option(0, s64(0)), False)
    d += section(15, b"strings", b"".join(s + b"\0" for s in STRINGS), compress)
    return d


def write(name, data):
    path = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def patch(d, at, value, width):
    return d[:at] + value.to_bytes(width, "little") + d[at + width:]


def damaged(a, b, bz):
    """The inputs of tests/import/invalid/dat-* (their expected-error files are written by
    hand, from the layout: see each case's comment)."""
    cases = {}
    # the magic, the version, endianness and long size, half of the page size
    cases["dat-header-cut"] = a[:16]
    # cut inside the header_page text (it starts at byte 38)
    cases["dat-header-page-cut"] = a[:100]
    # the last 1000 bytes gone: CPU 1's page (the last 4096 bytes) runs past the end
    cases["dat-cpu-data-cut"] = a[:-1000]
    # CPU 1's page says 4081 bytes of events, in a 4080-byte data area
    cases["dat-page-commit"] = patch(a, len(a) - PAGE + 8, 4081, 8)
    # CPU 0's last event (a cpu_idle: 4 words of data) made 28 words long, past the end of
    # its page's events (the first page starts at len - 2 pages, its events 16 bytes in)
    sizes = [4 + len(payload(pid, k, f)) for t, c, pid, k, f in EVENTS if c == 0]
    last = len(a) - 2 * PAGE + 16 + sum(sizes[:-1])
    cases["dat-event-overrun"] = patch(a, last, (a[last] & ~31 | 28) & 0xff, 1)
    # version 7 cut in the middle of its flyrecord section
    cases["dat-v7-section-cut"] = b[:len(b) - 4000]
    # the first options section's DONE points back at that section
    first_opt = struct.unpack_from("<Q", b, 24)[0]
    size = struct.unpack_from("<Q", b, first_opt + 8)[0]
    cases["dat-v7-options-loop"] = patch(b, first_opt + 16 + size - 8, first_opt, 8)
    # compressed: CPU 0's one chunk says 4095 bytes uncompressed (not whole pages)
    buf = bz.index(b"\0mono\0") - 8
    c0 = struct.unpack_from("<Q", bz, buf + 8 + 1 + 5 + 8 + 4)[0]
    cases["dat-v7z-chunk-size"] = patch(bz, c0 + 8, 4095, 4)
    for name, data in cases.items():
        write(os.path.join("invalid", name, "input"), data)


def main():
    a, b, bz = v6(), v7(False), v7(True)
    write("tiny-v6.dat", a)
    write("tiny-v7.dat", b)
    write("tiny-v7z.dat", bz)
    damaged(a, b, bz)


if __name__ == "__main__":
    main()
