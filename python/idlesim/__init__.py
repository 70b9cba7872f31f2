# SPDX-License-Identifier: GPL-2.0-only
"""idlesim from Python: the simulator of the Linux cpuidle governors over libidlesim.

    import idlesim
    t = idlesim.gen("irq-poisson", cpus=4, duration_s=1, seed=1)
    r = idlesim.run(t, "skl", ["menu", "teo"])
    r.runs[["governor", "hits_pct", "energy_j", "regret_energy_pct"]]
    r.states[r.states.cpu == "all"]

Tables are pandas DataFrames named as the kernel and `idlesim run -f json` name things
(sysfs usage/time/above/below, turbostat-like totals). docs/python.md has the whole API.
Errors in the input raise InputError with idlesim's own message (file:line:column: what).
"""
import ctypes
import json
import math
import os
import re
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from . import _lib

__all__ = ["InputError", "IdlesimError", "Machine", "Trace", "Result", "version", "machines",
           "machine", "governors", "gen", "run", "compare"]

_L = _lib.load()
INT64_MAX = 2**63 - 1

__version__ = _L.idlesim_version().decode()


def version():
    """The library's version ("0.1.0")."""
    return __version__


class IdlesimError(Exception):
    """An error of idlesim that is not the input's: out of memory, or a bug."""


class InputError(IdlesimError, ValueError):
    """Bad input or a bad option: str() is idlesim's message, 'FILE:LINE:COLUMN: what'
    (the parts known); .file, .line, .column and .message hold the parts."""

    def __init__(self, text, file="", line=0, column=0, message=None):
        super().__init__(text)
        self.file, self.line, self.column = file, line, column
        self.message = text if message is None else message


def _raise(err, what="idlesim"):
    buf = ctypes.create_string_buffer(1024)
    text = _L.idlesim_error_string(ctypes.byref(err), buf, len(buf)).decode(errors="replace")
    if not text:
        text = "%s failed" % what
    if err.code == 2:  # IDLESIM_ERR_NOMEM
        raise MemoryError(text)
    if err.code in (1, 3):  # IDLESIM_ERR_INPUT, IDLESIM_ERR_IO: the caller can fix it
        raise InputError(text, err.file.decode(errors="replace"), err.line, err.column,
                         err.message.decode(errors="replace"))
    raise IdlesimError(text)


def _b(s, what):
    """A str, bytes or path-like as the library's bytes (file names as the OS has them)."""
    if not isinstance(s, (str, bytes, os.PathLike)):
        raise TypeError("idlesim: %s must be a string, not %s" % (what, type(s).__name__))
    b = os.fsencode(s)
    if b"\0" in b:
        raise InputError("%s: a NUL character in %r" % (what, s))
    return b


def _int(v, what, lo, hi, message):
    """v as an integer in [lo, hi] for a C argument, else InputError(message): ctypes would
    wrap a value out of its type's range without a word."""
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise InputError("%s %r: %s" % (what, v, message))
    if not lo <= v <= hi:
        raise InputError("%s %d: %s" % (what, v, message))
    return v


# ---- machines ----

class Machine:
    """A machine: a built-in table ("skl", "spr", ...) or a JSON machine file."""

    def __init__(self, name_or_path):
        err = _lib.Error()
        self._h = _L.idlesim_machine_load(_b(name_or_path, "machine"), ctypes.byref(err))
        if not self._h:
            _raise(err)
        self._fill()

    @classmethod
    def from_json(cls, text, name="machine.json"):
        """A machine from a JSON table held in a string (docs/machines.md has the schema)."""
        m = cls.__new__(cls)
        err = _lib.Error()
        m._h = _L.idlesim_machine_from_json(_b(text, "machine JSON"), _b(name, "name"),
                                            ctypes.byref(err))
        if not m._h:
            _raise(err)
        m._fill()
        return m

    def _fill(self):
        self.name = _L.idlesim_machine_name(self._h).decode()
        self.cpus = _L.idlesim_machine_cpus(self._h)
        n = _L.idlesim_machine_state_count(self._h)
        self.states = pd.DataFrame(
            {"name": [_L.idlesim_machine_state_name(self._h, i).decode() for i in range(n)],
             "exit_latency_ns": [_L.idlesim_machine_exit_latency_ns(self._h, i) for i in range(n)],
             "target_residency_ns": [_L.idlesim_machine_target_residency_ns(self._h, i)
                                     for i in range(n)]})
        self.states.index.name = "state"

    def __del__(self):
        if getattr(self, "_h", None):
            _L.idlesim_machine_free(self._h)
            self._h = None

    def __repr__(self):
        return "<idlesim.Machine %s: %d CPUs, %d states>" % (self.name, self.cpus,
                                                            len(self.states))


def machines():
    """The built-in machines' names, in the order `idlesim machines` lists them."""
    out, i = [], 0
    while True:
        n = _L.idlesim_machine_builtin_name(i)
        if not n:
            return out
        out.append(n.decode())
        i += 1


def machine(name_or_path):
    """A built-in machine by name (case-insensitive) or a JSON machine file."""
    return Machine(name_or_path)


# ---- governors ----

def governors():
    """Every governor ("menu@6.19", "teo@5.1", "oracle", ...) as a DataFrame indexed by name:
    family (menu, teo, ...), and tunables: {name: (default, min, max)} of what run(...,
    tunables=) sets."""
    rows, i = [], 0
    while True:
        g = _L.idlesim_governor_name(i)
        if not g:
            break
        rows.append({"governor": g.decode(), "family": g.decode().split("@")[0],
                     "tunables": _tunables(g)})
        i += 1
    return pd.DataFrame(rows).set_index("governor")


def _tunables(g):
    out, j = {}, 0
    name, d, lo, hi = ctypes.c_char_p(), ctypes.c_longlong(), ctypes.c_longlong(), \
        ctypes.c_longlong()
    while _L.idlesim_governor_tunable(g, j, ctypes.byref(name), ctypes.byref(d),
                                      ctypes.byref(lo), ctypes.byref(hi)) == 0:
        out[name.value.decode()] = (d.value, lo.value, hi.value)
        j += 1
    return out


def resolve(governor):
    """The full name a governor name selects ("menu" -> the newest menu); InputError if none."""
    r = _L.idlesim_governor_resolve(_b(governor, "governor"))
    if not r:
        raise InputError("unknown governor '%s' (idlesim.governors() lists them)" % governor)
    return r.decode()


# ---- traces ----

class Trace:
    """A trace any command reads: idlesim's native text or binary (.itb) form, or a kernel
    trace (ftrace, trace-cmd report, perf script, trace.dat). The file is read again by each
    run, so it must stay in place."""

    def __init__(self, path):
        err = _lib.Error()
        self.path = os.fspath(path)
        self._h = _L.idlesim_trace_open(_b(path, "trace"), ctypes.byref(err))
        if not self._h:
            _raise(err)
        self._fill()

    @classmethod
    def from_string(cls, text, name="trace"):
        """A native text trace held in a string (traces/FORMAT.md)."""
        t = cls.__new__(cls)
        err = _lib.Error()
        t.path = None
        t._h = _L.idlesim_trace_from_string(_b(text, "trace text"), _b(name, "name"),
                                            ctypes.byref(err))
        if not t._h:
            _raise(err)
        t._fill()
        return t

    def _fill(self):
        self.name = _L.idlesim_trace_name(self._h).decode()
        self.cpus = _L.idlesim_trace_cpus(self._h)
        self.hz = _L.idlesim_trace_hz(self._h)

    @property
    def reference_runs(self):
        """How many passes of the references (oracle, oracle-energy) runs of this trace made:
        one per configuration (machine, hz, latency limit, states, wake-latency model),
        whatever the governors and calls."""
        return _L.idlesim_trace_reference_runs(self._h)

    def __del__(self):
        if getattr(self, "_h", None):
            _L.idlesim_trace_free(self._h)
            self._h = None
        tmp = getattr(self, "_tmpdir", None)
        if tmp is not None:
            tmp.cleanup()

    def __repr__(self):
        return "<idlesim.Trace %s: %d CPUs, HZ %s>" % (self.name, self.cpus, self.hz or "?")


def _cli(args, what):
    """Run the idlesim command; its message as InputError when it refuses (exit 2)."""
    exe = _lib.find_executable()
    p = subprocess.run([exe] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        text = p.stderr.decode(errors="replace").strip()
        lines = [s[len("idlesim: "):] if s.startswith("idlesim: ") else s
                 for s in text.splitlines()]
        msg = "\n".join(lines) or "%s failed with status %d" % (what, p.returncode)
        if p.returncode == 2:
            # "FILE:LINE:COLUMN: what", as the library's errors are
            m = re.match(r"(.+?):(\d+):(\d+): (.*)", lines[0] if lines else "", re.S)
            if m:
                raise InputError(msg, m.group(1), int(m.group(2)), int(m.group(3)), m.group(4))
            raise InputError(msg)
        raise IdlesimError(msg)
    return p.stdout


def _options(kw):
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        out.append("--" + k.replace("_", "-"))
        if v is not True:
            out.append(",".join(str(x) for x in v) if isinstance(v, (list, tuple)) else str(v))
    return out


def gen(workload, path=None, **options):
    """A synthetic trace, as `idlesim gen --workload WORKLOAD` writes it; the options are
    gen's without their dashes (cpus=4, duration_s=2, seed=3, mean_us=500, clients=4 for a
    model...). Written to path (the binary form if it ends in .itb), else to a temporary
    file that lives as long as the Trace."""
    tmp = None
    if path is None:
        tmp = tempfile.TemporaryDirectory(prefix="idlesim-")
        path = os.path.join(tmp.name, "%s.itb" % workload)
    try:
        _cli(["gen", "--workload", str(workload)] + _options(options) + ["-o", os.fspath(path)],
             "idlesim gen")
        t = Trace(path)
    except BaseException:
        if tmp is not None:
            tmp.cleanup()
        raise
    t._tmpdir = tmp
    return t


# ---- running ----

_VERDICTS = ("hit", "above", "below")
_BASE_FIELDS = {"governor", "time_ns", "cpu", "state", "state_name", "stop_tick",
                "tick_stopped_before", "tick_stopped_after", "sleep_length_ns", "delta_tick_ns",
                "latency_req_ns", "oracle_idle_ns", "wake_ns", "cause", "residency_ns",
                "verdict", "first"}


class Result:
    """What run() returns: DataFrames runs (a row per governor), states (a row per governor,
    CPU and state, with cpu "all" for the totals), config (a row per governor, the config
    record flattened; config_records holds the records as dicts), decisions (with explain)."""

    def __init__(self, machine, trace, parts):
        self.machine, self.trace = machine, trace
        self.governors = [p["governor"] for p in parts]
        self.runs = pd.DataFrame([p["run"] for p in parts])
        self.states = pd.DataFrame([s for p in parts for s in p["states"]])
        self.config_records = [p["config"] for p in parts]
        self.config = pd.json_normalize(self.config_records)
        dec = [d for p in parts for d in p["decisions"]]
        self.decisions = pd.DataFrame(dec) if dec else None

    def __repr__(self):
        return "<idlesim.Result %s on %s: %s>" % (self.trace.name, self.machine.name,
                                                 ", ".join(self.governors))

    def plot_residency(self, **kw):
        from . import plot
        return plot.residency(self, **kw)

    def plot_timeline(self, cpu, start_ns, end_ns, **kw):
        from . import plot
        return plot.timeline(self, cpu, start_ns, end_ns, **kw)

    def plot_idle_histogram(self, **kw):
        from . import plot
        return plot.idle_histogram(self, **kw)


def _summary_row(r, governor, cpu):
    s = _lib.Summary()
    if _L.idlesim_result_summary(r, cpu, ctypes.byref(s)) != 0:
        raise IdlesimError("idlesim_result_summary(%d) failed" % cpu)
    row = {"governor": governor, "start_ns": s.start_ns, "end_ns": s.end_ns,
           "duration_ns": s.end_ns - s.start_ns, "idle_entries": s.idle_entries,
           "above": s.above, "below": s.below, "hits": s.hits, "above_pct": s.above_pct,
           "below_pct": s.below_pct, "hits_pct": s.hits_pct, "busy_pct": s.busy_pct}
    for i, c in enumerate(_lib.WAKE_CAUSES):
        row["wakeups_" + c] = s.wakeups[i]
    row.update({"wake_latency_samples": s.lat_samples,
                "wake_latency_mean_ns": s.lat_mean_ns if s.lat_samples else math.nan,
                "wake_latency_p50_ns": s.lat_p50_ns, "wake_latency_p99_ns": s.lat_p99_ns,
                "wake_latency_max_ns": s.lat_max_ns, "energy_j": s.energy_j,
                "idle_energy_j": s.idle_energy_j, "transition_energy_j": s.transition_energy_j,
                "package_energy_j": s.package_energy_j, "avg_power_w": s.avg_power_w})
    nan = math.nan
    row.update({"regret_energy_j": s.regret_energy_j if s.has_regret else nan,
                "regret_energy_pct": s.regret_energy_pct if s.has_regret else nan,
                "regret_package_energy_j": s.regret_package_j if s.has_regret else nan,
                "regret_wake_latency_mean_ns": s.regret_lat_mean_ns if s.has_regret else nan})
    return row


def _decisions(r, governor, names):
    out = []
    d = _lib.Decision()
    key, sv, nv = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_longlong()
    for i in range(_L.idlesim_result_decision_count(r)):
        _L.idlesim_result_decision(r, i, ctypes.byref(d))
        row = {"governor": governor, "time_ns": d.time_ns, "cpu": d.cpu, "state": d.state,
               "state_name": names[d.state] if 0 <= d.state < len(names) else None,
               "stop_tick": bool(d.stop_tick), "tick_stopped_before": bool(d.tick_stopped_before),
               "tick_stopped_after": bool(d.tick_stopped_after),
               "sleep_length_ns": d.sleep_length_ns, "delta_tick_ns": d.delta_tick_ns,
               "latency_req_ns": d.latency_req_ns, "oracle_idle_ns": d.oracle_idle_ns,
               "wake_ns": d.wake_ns, "cause": _lib.WAKE_CAUSES[d.cause]
               if 0 <= d.cause < len(_lib.WAKE_CAUSES) else str(d.cause),
               "residency_ns": d.residency_ns, "verdict": _VERDICTS[d.verdict]
               if 0 <= d.verdict < 3 else str(d.verdict), "first": bool(d.first)}
        for j in range(d.nr_vars):
            _L.idlesim_result_decision_var(r, i, j, ctypes.byref(key), ctypes.byref(sv),
                                           ctypes.byref(nv))
            k = key.value.decode()
            # the governor's own copy of a base field (menu's sleep_length_ns) keeps its own
            row["governor." + k if k in _BASE_FIELDS else k] = \
                sv.value.decode() if sv.value is not None else nv.value
        out.append(row)
    return out


def _one_run(m, t, governor, opts):
    err = _lib.Error()
    r = _L.idlesim_run(m._h, t._h, _b(governor, "governor"), opts, ctypes.byref(err))
    if not r:
        _raise(err)
    try:
        g = _L.idlesim_result_governor(r).decode()
        ncpu = _L.idlesim_result_cpus(r)
        names = [_L.idlesim_result_state_name(r, i).decode()
                 for i in range(_L.idlesim_result_state_count(r))]
        st = _lib.StateStats()
        states = []
        for cpu in list(range(ncpu)) + [-1]:
            for i, n in enumerate(names):
                _L.idlesim_result_state(r, cpu, i, ctypes.byref(st))
                states.append({"governor": g, "cpu": "all" if cpu < 0 else cpu, "state": i,
                               "name": n, "disabled": bool(st.disabled), "usage": st.usage,
                               "time": st.time_ns // 1000, "time_ns": st.time_ns,
                               "above": st.above, "below": st.below})
        p = _L.idlesim_result_config_json(r)
        if not p:
            raise MemoryError("idlesim: out of memory")
        try:
            config = json.loads(ctypes.string_at(p).decode())
        finally:
            _L.idlesim_free(p)
        run_row = _summary_row(r, g, -1)
        run_row.update({"machine": m.name, "trace": t.name, "hz": _L.idlesim_result_hz(r),
                        "cpus": ncpu})
        return {"governor": g, "run": run_row, "states": states, "config": config,
                "decisions": _decisions(r, g, names)}
    finally:
        _L.idlesim_result_free(r)


def _set(rc, err):
    if rc != 0:
        _raise(err)


def _make_options(hz, latency_limit_us, disable, enable, tunables, wake_latency, wake_seed,
                  explain):
    o = _L.idlesim_options_new()
    if not o:
        raise MemoryError("idlesim: out of memory")
    err = _lib.Error()
    try:
        if hz:
            hz = _int(hz, "hz", -2**31, 2**31 - 1, "must be 1..10000, or 0 for the trace's")
            _set(_L.idlesim_options_set_hz(o, hz, ctypes.byref(err)), err)
        if latency_limit_us is not None:
            if not isinstance(latency_limit_us, (int, float)) or isinstance(latency_limit_us, bool) \
                    or math.isnan(latency_limit_us) or abs(latency_limit_us) > 2**53:
                raise InputError("latency limit %r us: must be 0..2000000000000, or negative "
                                 "for none" % (latency_limit_us,))
            ns = int(round(latency_limit_us * 1000))
            _set(_L.idlesim_options_set_latency_limit_ns(o, ns, ctypes.byref(err)), err)
        for s in ([disable] if isinstance(disable, (str, int)) else disable or ()):
            _set(_L.idlesim_options_disable_state(o, _b(str(s), "disable"), ctypes.byref(err)),
                 err)
        for s in ([enable] if isinstance(enable, (str, int)) else enable or ()):
            _set(_L.idlesim_options_enable_state(o, _b(str(s), "enable"), ctypes.byref(err)), err)
        for fam, name, v in tunables:
            if isinstance(v, bool) or not isinstance(v, int):
                raise InputError("--set %s.%s=%r: tunables are integers" % (fam, name, v))
            v = _int(v, "--set %s.%s" % (fam, name), -2**63, 2**63 - 1, "out of range")
            _set(_L.idlesim_options_set_tunable(o, _b(fam, "tunable family"),
                                                _b(name, "tunable"), v, ctypes.byref(err)), err)
        if wake_latency:
            _set(_L.idlesim_options_set_wake_model(o, _b(wake_latency, "wake_latency"),
                                                   ctypes.byref(err)), err)
        if wake_seed is not None:
            _L.idlesim_options_set_wake_seed(o, _int(wake_seed, "wake_seed", 0, 2**64 - 1,
                                                     "must be 0..2^64-1"))
        if explain:
            n = -1 if explain is True else _int(explain, "explain", -2**63, 2**63 - 1,
                                                "decisions to keep: N > 0, or True for all")
            # more than a long holds is all of them
            _L.idlesim_options_set_decision_log(o, -1 if n < 0 or n > 2**31 - 1 else n)
    except BaseException:
        _L.idlesim_options_free(o)
        raise
    return o


def _flat_tunables(t):
    """{"menu.decay": 8} or {"menu": {"decay": 8}} -> (family, name, value)."""
    if not isinstance(t, dict):
        raise TypeError("idlesim: tunables must be a dict ({'menu.decay': 6}), not %s"
                        % type(t).__name__)
    for k, v in t.items():
        if isinstance(v, dict):
            for n, x in v.items():
                yield k, n, x
        elif "." in k:
            fam, name = k.split(".", 1)
            yield fam, name, v
        else:
            raise InputError("tunable '%s': give it as FAMILY.NAME (menu.decay)" % k)


def run(trace, machine, governors, tunables=None, wake_latency=None, wake_seed=None, hz=0,
        latency_limit_us=None, disable=(), enable=(), explain=0, threads=1):
    """Replay a trace on a machine through each governor, as `idlesim run` does (the
    references oracle and oracle-energy run too, for the regret columns).

    trace: a Trace or a path; machine: a Machine, a built-in name or a JSON file; governors:
    a name or a list ("menu", "teo@5.1", "oracle"...); tunables: {"menu.decay": 6} or
    {"menu": {"decay": 6}} (--set); wake_latency: "worst", "typical" (default) or "measured";
    hz: the tick rate (0: the trace's); latency_limit_us: a PM QoS limit; disable/enable:
    state names or indices; explain: decisions kept per run (True: all; --explain N);
    threads: governors run at once on this many threads (the GIL is released)."""
    t = trace if isinstance(trace, Trace) else Trace(trace)
    m = machine if isinstance(machine, Machine) else Machine(machine)
    govs = [governors] if isinstance(governors, str) else list(governors)
    if not govs:
        raise InputError("run: no governor given")
    fams = [resolve(g).split("@")[0] for g in govs]
    sets = list(_flat_tunables(tunables or {}))
    for fam, name, v in sets:  # as the command line: a --set must apply to some governor
        if fam not in fams:
            raise InputError("--set %s.%s=%s applies to none of the selected governors (%s); "
                             "see idlesim.governors()" % (fam, name, v, ", ".join(govs)))
    # each run takes the tunables of its own family (the library checks them against it)
    opts = {f: None for f in fams}
    try:
        for f in opts:
            opts[f] = _make_options(hz, latency_limit_us, disable, enable,
                                    [x for x in sets if x[0] == f], wake_latency, wake_seed,
                                    explain)
        jobs = list(zip(govs, fams))
        if threads and threads > 1 and len(govs) > 1:
            with ThreadPoolExecutor(max_workers=int(threads)) as ex:
                parts = list(ex.map(lambda j: _one_run(m, t, j[0], opts[j[1]]), jobs))
        else:
            parts = [_one_run(m, t, g, opts[f]) for g, f in jobs]
    finally:
        for o in opts.values():
            if o:
                _L.idlesim_options_free(o)
    return Result(m, t, parts)


# ---- compare (the command's; the library has no comparisons) ----

def compare(workload, machines, governors, iterations=5, seed=None, duration_s=None,
            metrics=None, hz=None, **params):
    """An MMTests-style comparison on a closed-loop workload, as `idlesim compare` makes it:
    a DataFrame with a row per (value, machine, metric, governor): n, mean (mean_kind: amean
    or hmean as MMTests uses), stddev, coeffvar, min, max, pct against the first governor
    (positive is better), p_value, significant, samples. The workload's parameters are
    keyword arguments (clients=[1, 2, 4], placement="sched"); df.attrs holds the gmean rows,
    the baseline and the setup record."""
    args = ["compare", "--workload", str(workload), "-f", "json",
            "-m", ",".join([machines] if isinstance(machines, str) else machines),
            "-g", ",".join([governors] if isinstance(governors, str) else governors),
            "--iterations", str(iterations)]
    args += _options({"seed": seed, "duration_s": duration_s, "hz": hz})
    for mt in ([metrics] if isinstance(metrics, str) else metrics or ()):
        args += ["--metric", mt]
    args += _options(params)
    doc = json.loads(_cli(args, "idlesim compare"))
    rows = []
    for c in doc["cells"]:
        for g in c["governors"]:
            x = g["samples"]
            mean = g["mean"]
            rows.append({"workload": c["workload"], "param": c.get("param"),
                         "value": c.get("value"), "machine": c["machine"],
                         "metric": c["metric"], "higher_is_better": c["higher_is_better"],
                         "governor": g["governor"], "n": len(x), "mean": mean,
                         "mean_kind": g["mean_kind"], "stddev": g["stddev"],
                         "coeffvar": g["stddev"] * 100 / mean if mean else 0.0,
                         "min": min(x) if x else math.nan, "max": max(x) if x else math.nan,
                         "pct": g["pct"],
                         "p_value": math.nan if g["p_value"] is None else g["p_value"],
                         "significant": g["significant"], "samples": x})
    df = pd.DataFrame(rows)
    df.attrs.update({"baseline": doc.get("baseline"), "gmean": doc.get("gmean"),
                     "setup": doc.get("setup"), "schema": doc.get("schema")})
    return df
