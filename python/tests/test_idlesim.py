# SPDX-License-Identifier: GPL-2.0-only
"""The Python binding against hand-checked numbers and against the command line's JSON on
the same input, its errors, and runs on two threads at once (python3 -m pytest python/tests).

The library and command are found as idlesim._lib says: $IDLESIM_LIBRARY and $IDLESIM_BIN
(ctest sets them to the build's), else the build/ next to python/.
"""
import ctypes
import json
import math
import os
import subprocess
import sys
import threading
import time

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import idlesim  # noqa: E402
from idlesim import _lib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(ROOT, "traces", "demo.trace")
EXE = _lib.find_executable()

# tests/test_api.c's hand-checked case: POLL (0/0 ns, 1 W) and C1 (exit latency 0, target
# residency 100 us, 0.5 W), active at 2 W; idle 0-300 us (irq), 400-450 (irq), 600-800
# (timer) in a 1 ms trace.
TINY = """{"name": "tiny", "driver": "test",
 "topology": {"packages": 1, "cores": 1, "threads": 1},
 "power": {"active_core_w": 2.0, "active_package_w": 0.0},
 "states": [
  {"name": "POLL", "flags": ["POLLING"], "exit_latency_ns": 0, "target_residency_ns": 0,
   "core_power_w": 1.0, "package_power_w": 0.0, "entry_exit_energy_j": 0.0},
  {"name": "C1", "flags": [], "exit_latency_ns": 0, "target_residency_ns": 100000,
   "core_power_w": 0.5, "package_power_w": 0.0, "entry_exit_energy_j": 0.0}]}
"""
TINY_TRACE = ("idlesim-trace v1\ncpus 1\nhz 250\nstart 0\nend 1000000\n"
              "idle 0 0 300000 irq\nidle 0 400000 50000 irq\n"
              "idle 0 600000 200000 timer timer=hrtimer\n")


def cli_json(*args):
    p = subprocess.run([EXE] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=True)
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def tiny():
    return idlesim.Machine.from_json(TINY, "tiny.json"), idlesim.Trace.from_string(TINY_TRACE,
                                                                                   "tiny")


# ---- machines, governors, traces ----

def test_machines_and_machine():
    names = idlesim.machines()
    assert "skl" in names and "hsw" in names
    m = idlesim.machine("SKL")  # case-insensitive, as the command line
    assert m.name == "skl" and m.cpus == 8
    # intel_idle's skl_cstates: C6 exit latency 85 us, target residency 200 us
    c6 = m.states.set_index("name").loc["C6"]
    assert (c6.exit_latency_ns, c6.target_residency_ns) == (85000, 200000)
    assert m.states.loc[0, "name"] == "POLL"


def test_machine_json_file(tmp_path):
    p = tmp_path / "tiny.json"
    p.write_text(TINY)
    m = idlesim.machine(str(p))
    assert m.name == "tiny" and list(m.states.name) == ["POLL", "C1"]
    assert list(m.states.target_residency_ns) == [0, 100000]


def test_governors():
    g = idlesim.governors()
    assert {"oracle", "oracle-energy", "menu@6.19", "teo@6.19", "ladder@6.12"} <= set(g.index)
    # menu's tunables are the kernel's constants: DECAY 8, RESOLUTION 1024
    assert g.loc["menu@6.19", "tunables"]["decay"][0] == 8
    assert g.loc["menu@6.19", "tunables"]["resolution"][0] == 1024
    assert g.loc["teo@6.19", "family"] == "teo"
    assert idlesim.resolve("menu") == "menu@6.19"
    with pytest.raises(idlesim.InputError):
        idlesim.resolve("nope")


def test_version_equals_the_command():
    out = subprocess.run([EXE, "--version"], stdout=subprocess.PIPE, check=True).stdout
    assert out.decode().split() == ["idlesim", idlesim.version()]
    assert idlesim.__version__ == idlesim.version()


@pytest.mark.parametrize("name", ["scenario.ftrace", "scenario.report", "scenario.perf"])
def test_kernel_trace_equals_cli(name):
    """A kernel trace (ftrace text, trace-cmd report, perf script) is read as run reads it."""
    path = os.path.join(ROOT, "tests", "import", name)
    r = idlesim.run(path, "skl", "menu")
    j = _cli_run(["--trace", path, "-m", "skl", "-g", "menu"])[0]
    assert r.runs.loc[0, "idle_entries"] == j["totals"]["idle_entries"] > 0
    assert r.runs.loc[0, "energy_j"] == pytest.approx(j["totals"]["energy_j"], rel=1e-9)


def test_trace_objects():
    t = idlesim.Trace(DEMO)
    assert t.cpus == 8 and t.path == DEMO
    t2 = idlesim.Trace.from_string(TINY_TRACE, "tiny")
    assert (t2.cpus, t2.hz, t2.name) == (1, 250, "tiny")


# ---- runs: hand-checked, then equal to the command line ----

def test_hand_checked_run(tiny):
    m, t = tiny
    r = idlesim.run(t, m, ["deepest", "oracle"])
    run = r.runs.set_index("governor")
    d = run.loc["deepest"]
    # deepest takes C1 three times: the 50 us period is too short for it (above)
    assert (d.idle_entries, d.above, d.below, d.hits) == (3, 1, 0, 2)
    assert d.busy_pct == pytest.approx(45.0)
    assert (d.wakeups_irq, d.wakeups_timer, d.wakeups_tick) == (2, 1, 0)
    # 450 us busy at 2 W + 550 us in C1 at 0.5 W
    assert d.energy_j == pytest.approx(1175e-6)
    assert d.idle_energy_j == pytest.approx(275e-6)
    assert d.regret_energy_j == pytest.approx(0.0, abs=1e-12)
    # the oracle takes POLL (1 W) for the 50 us period: 25 uJ more than deepest
    assert run.loc["oracle", "energy_j"] == pytest.approx(1200e-6)
    assert run.loc["oracle", "regret_energy_pct"] == pytest.approx(2500.0 / 1175.0)
    st = r.states[(r.states.governor == "deepest") & (r.states.cpu == "all")]
    c1 = st.set_index("name").loc["C1"]
    assert (c1.usage, c1.time_ns, c1.time, c1.above, c1.below) == (3, 550000, 550, 1, 0)
    assert r.decisions is None


def test_decisions_hand_checked(tiny):
    m, t = tiny
    r = idlesim.run(t, m, "oracle", latency_limit_us=0, explain=True)
    d = r.decisions
    assert list(d.time_ns) == [0, 400000, 600000]
    assert list(d.state_name) == ["C1", "POLL", "C1"]
    assert list(d.cause) == ["irq", "irq", "timer"]
    assert list(d.verdict) == ["hit", "hit", "hit"]
    assert d.loc[1, "rule"] == "shallowest-fits" and d.loc[1, "idle_ns"] == 50000
    assert d.loc[0, "sleep_length_ns"] == idlesim.INT64_MAX  # no timer
    assert d.loc[2, "sleep_length_ns"] == 200000


def test_disable_and_tunables(tiny):
    m, t = tiny
    # deepest with C1 disabled is left with POLL, cut at the tick's 4 ms / 16 = 250 us
    r = idlesim.run(t, m, "deepest", disable=["C1"])
    poll = r.states[(r.states.cpu == "all") & (r.states.name == "POLL")].iloc[0]
    assert (poll.usage, poll.time_ns) == (4, 550000)
    assert bool(r.states[(r.states.cpu == "all") & (r.states.name == "C1")].iloc[0].disabled)
    r = idlesim.run(DEMO, "skl", "menu", tunables={"menu.decay": 4}, hz=1000)
    assert r.config.loc[0, "tunables.decay"] == 4
    assert r.config.loc[0, "hz"] == 1000 and r.runs.loc[0, "hz"] == 1000


def _cli_run(args):
    return cli_json("run", "-f", "json", *args)["runs"]


def test_run_equals_cli_json():
    r = idlesim.run(DEMO, "skl", ["menu", "teo@5.1"], wake_latency="worst",
                    tunables={"teo": {"decay_shift": 2}}, explain=50)
    runs = _cli_run(["--trace", DEMO, "-m", "skl", "-g", "menu", "-g", "teo@5.1",
                     "--wake-latency", "worst", "--set", "teo.decay_shift=2", "--explain", "50"])
    assert len(runs) == 2
    for j in runs:
        g = j["governor"]
        row = r.runs[r.runs.governor == g].iloc[0]
        tot = j["totals"]
        for k in ("idle_entries", "above", "below", "hits"):
            assert row[k] == tot[k], (g, k)
        for k in ("above_pct", "below_pct", "hits_pct", "busy_pct", "energy_j", "idle_energy_j",
                  "transition_energy_j", "avg_power_w"):
            assert row[k] == pytest.approx(tot[k], rel=1e-9), (g, k)
        for c, n in tot["wakeups"].items():
            assert row["wakeups_" + c] == n
        lat = tot["wake_latency_ns"]
        assert row.wake_latency_samples == lat["samples"]
        assert row.wake_latency_mean_ns == pytest.approx(lat["mean"], rel=1e-9)
        assert (row.wake_latency_p50_ns, row.wake_latency_p99_ns, row.wake_latency_max_ns) == \
            (lat["p50"], lat["p99"], lat["max"])
        assert row.regret_energy_j == pytest.approx(j["regret"]["energy_j"], rel=1e-9)
        assert row.regret_energy_pct == pytest.approx(j["regret"]["energy_pct"], rel=1e-9)
        assert row.regret_wake_latency_mean_ns == pytest.approx(
            j["regret"]["wake_latency_mean_ns"], rel=1e-9)
        # states: the totals and every CPU's
        st = r.states[r.states.governor == g]
        for s in j["states"]:
            mine = st[(st.cpu == "all") & (st.state == s["index"])].iloc[0]
            assert (mine["name"], mine.usage, mine.time_ns, mine.above, mine.below,
                    mine.disabled) == (s["name"], s["usage"], s["time_ns"], s["above"],
                                       s["below"], s["disabled"])
        for c in j["cpus"]:
            for s in c["states"]:
                mine = st[(st.cpu == c["cpu"]) & (st.state == s["index"])].iloc[0]
                assert (mine.usage, mine.time_ns, mine.above, mine.below) == \
                    (s["usage"], s["time_ns"], s["above"], s["below"])
        # the config record as the command writes it (the same writer)
        assert r.config_records[r.governors.index(g)] == j["config"]
        # decisions: the first 50, field by field
        dec = r.decisions[r.decisions.governor == g].reset_index(drop=True)
        assert len(dec) == len(j["decisions"]) == 50
        for i, jd in enumerate(j["decisions"]):
            for k in ("time_ns", "cpu", "state", "state_name", "stop_tick", "wake_ns", "cause",
                      "residency_ns", "verdict", "sleep_length_ns", "latency_req_ns",
                      "tick_stopped_before", "tick_stopped_after"):
                assert dec.loc[i, k] == jd[k], (g, i, k)
            for k, v in jd["governor"].items():
                col = "governor." + k if k in idlesim._BASE_FIELDS else k
                mine = dec.loc[i, col]
                assert (v is None and (mine is None or mine != mine)) or mine == v, (g, i, k)


def test_gen_equals_cli(tmp_path):
    p = tmp_path / "g.trace"
    t = idlesim.gen("mixed", path=str(p), cpus=2, duration_s=0.05, seed=7, mean_us=300)
    assert t.cpus == 2 and t.path == str(p)
    q = subprocess.run([EXE, "gen", "--workload", "mixed", "--cpus", "2", "--duration-s", "0.05",
                        "--seed", "7", "--mean-us", "300"], stdout=subprocess.PIPE, check=True)
    # the header's source line records the command, which differs in its -o: compare the rest
    strip = [s for s in p.read_bytes().splitlines() if not s.startswith(b"source ")]
    assert strip == [s for s in q.stdout.splitlines() if not s.startswith(b"source ")]
    # a temporary one lives with its Trace, in the binary form
    t2 = idlesim.gen("tbench", cpus=4, clients=1, duration_s=0.05)
    path = t2.path
    assert path.endswith(".itb") and os.path.exists(path)
    r = idlesim.run(t2, "skl", "teo")
    assert r.runs.loc[0, "idle_entries"] > 0
    del t2, r
    import gc
    gc.collect()
    assert not os.path.exists(path)


def test_compare_equals_cli():
    df = idlesim.compare("tbench", "skl", ["menu", "teo"], iterations=3, duration_s=0.1,
                         clients=[1, 2], seed=5)
    j = cli_json("compare", "--workload", "tbench", "-m", "skl", "-g", "menu,teo",
                 "--iterations", "3", "--duration-s", "0.1", "--clients", "1,2", "--seed", "5",
                 "-f", "json")
    assert len(df) == sum(len(c["governors"]) for c in j["cells"])
    assert df.attrs["baseline"] == j["baseline"] == "menu@6.19"
    for c in j["cells"]:
        for g in c["governors"]:
            row = df[(df.value == c["value"]) & (df.metric == c["metric"]) &
                     (df.governor == g["governor"])].iloc[0]
            assert row["mean"] == pytest.approx(g["mean"], rel=1e-12)
            assert row.samples == g["samples"]
            assert row.significant == g["significant"]
            assert row["min"] == min(g["samples"]) and row["max"] == max(g["samples"])
    thr = df[(df.metric == "throughput") & (df.value == 1)]
    assert list(thr.mean_kind) == ["hmean", "hmean"]  # MMTests: Hmean for throughput


# ---- bad input: idlesim's message, never a crash ----

def test_bad_inputs(tmp_path):
    with pytest.raises(idlesim.InputError, match="cannot open"):
        idlesim.Trace(str(tmp_path / "missing.trace"))
    bad = tmp_path / "bad.trace"
    bad.write_text("idlesim-trace v1\ncpus 1\nstart 0\nend 1000000\nidle 0 x 5 irq\n")
    with pytest.raises(idlesim.InputError) as e:
        idlesim.run(str(bad), "skl", "menu")
    assert (e.value.file, e.value.line, e.value.column) == (str(bad), 5, 8)
    assert str(e.value).startswith("%s:5:8: " % bad)
    with pytest.raises(idlesim.InputError) as e:
        idlesim.Machine.from_json('{"name": "x", "states": [}', "m.json")
    assert e.value.file == "m.json" and e.value.line == 1
    with pytest.raises(idlesim.InputError, match="unknown machine|no machine|nope"):
        idlesim.machine("nope")
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", "menu", tunables={"menu.nope": 1})
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", "menu", tunables={"menu.decay": 1.5})
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", "menu", disable=["C42"])
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", "menu", wake_latency="sometimes")
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", "menu", hz=-5)
    with pytest.raises(idlesim.InputError):
        idlesim.run(DEMO, "skl", [])
    with pytest.raises(idlesim.InputError, match="NUL"):
        idlesim.machine("sk\0l")
    with pytest.raises(TypeError):
        idlesim.machine(42)
    # values a C type cannot hold are refused, not wrapped into another value
    for kw in ({"hz": 10**12}, {"latency_limit_us": 1e30}, {"latency_limit_us": float("nan")},
               {"wake_seed": -1}, {"wake_seed": 2**70}, {"tunables": {"menu.decay": 2**70}}):
        with pytest.raises(idlesim.InputError) as e:
            idlesim.run(DEMO, "skl", "menu", **kw)
        assert "-727379968" not in str(e.value) and "=0:" not in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="tunables must be a dict"):
        idlesim.run(DEMO, "skl", "menu", tunables=[1])
    # a file name that is not UTF-8 is the OS's bytes, not an encoding error
    with pytest.raises(idlesim.InputError, match="cannot open"):
        idlesim.Trace(os.fsdecode(b"/nonexistent/\xff.trace"))
    with pytest.raises(idlesim.InputError, match="cannot open"):
        idlesim.Trace(b"/nonexistent/x.trace")
    # a command's message keeps its position too
    badm = tmp_path / "bad.json"
    badm.write_text('{"name": "x", "states": [}')
    with pytest.raises(idlesim.InputError) as e:
        idlesim.compare("tbench", str(badm), "menu")
    assert (e.value.file, e.value.line) == (str(badm), 1), str(e.value)
    with pytest.raises(idlesim.InputError, match="unknown workload"):
        idlesim.gen("nope")
    with pytest.raises(idlesim.InputError, match="--cpus"):
        idlesim.gen("periodic", cpus=0)
    with pytest.raises(idlesim.InputError):
        idlesim.compare("tbench", "skl", "menu", clients="x")
    with pytest.raises(ValueError, match="explain"):
        idlesim.run(DEMO, "skl", "menu").plot_timeline(0, 0, 10**6)


# ---- threads ----

def test_two_threads_at_once():
    serial = idlesim.run(DEMO, "skl", ["menu", "teo", "ladder"])
    both = idlesim.run(DEMO, "skl", ["menu", "teo", "ladder"], threads=2)
    pd.testing.assert_frame_equal(serial.runs, both.runs)
    pd.testing.assert_frame_equal(serial.states, both.states)
    out = {}

    def one(name, g):
        out[name] = idlesim.run(DEMO, "skl", g).runs

    ts = [threading.Thread(target=one, args=(n, g)) for n, g in (("a", "menu"), ("b", "teo"))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    pd.testing.assert_frame_equal(out["a"], serial.runs.iloc[[0]].reset_index(drop=True))
    pd.testing.assert_frame_equal(out["b"], serial.runs.iloc[[1]].reset_index(drop=True))


def test_references_once_per_trace():
    t = idlesim.Trace(DEMO)
    assert t.reference_runs == 0
    many = idlesim.run(t, "skl", ["menu", "teo", "ladder"], threads=2)
    idlesim.run(t, "skl", "teo")
    assert t.reference_runs == 1
    idlesim.run(t, "skl", "menu", latency_limit_us=50)
    assert t.reference_runs == 2
    # a run that computed its references itself has the same regret as one served
    own = idlesim.run(idlesim.Trace(DEMO), "skl", "ladder")
    pd.testing.assert_frame_equal(own.runs, many.runs.iloc[[2]].reset_index(drop=True))


def _spin_rate():
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.05:
        n += 1
    return n / (time.perf_counter() - t0)


def test_gil_released_during_a_run():
    """While the library runs, another Python thread runs too: ctypes.CDLL drops the GIL.
    Held (ctypes.PyDLL), this loop would get one switch interval (set to 1 ms here) of the
    run; released, it spins through most of it."""
    big = idlesim.gen("irq-poisson", cpus=8, duration_s=10, seed=2, mean_us=200)
    m = idlesim.machine("skl")
    done = threading.Event()
    took = []

    def work():  # the C call alone, so that no Python code of the binding runs meanwhile
        err = _lib.Error()
        t0 = time.perf_counter()
        r = idlesim._L.idlesim_run(m._h, big._h, b"teo", None, ctypes.byref(err))
        took.append(time.perf_counter() - t0)
        idlesim._L.idlesim_result_free(r)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        rate = _spin_rate()
        t = threading.Thread(target=work)
        t.start()
        spins = 0
        while not done.is_set():
            spins += 1
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert took[0] > 0.05  # long enough to tell: 10 s of 8 CPUs
    assert spins > rate * took[0] * 0.25, (spins, rate, took)


# ---- plots ----

def test_plots():
    r = idlesim.run(DEMO, "skl", ["menu", "oracle"], explain=True)
    ax = r.plot_residency()
    assert len(ax.patches) == 2 * len(r.machine.states)
    heights = [p.get_height() for p in ax.patches[:len(r.machine.states)]]
    assert sum(heights) == pytest.approx(100.0)
    ax = r.plot_timeline(2, 0, 20_000_000)
    assert [l.get_label() for l in ax.get_lines()] == ["menu@6.19", "oracle"]
    ax = r.plot_idle_histogram()
    targets = sorted({x for x in r.machine.states.target_residency_ns if x > 0})
    drawn = sorted({l.get_xdata()[0] * 1000 for l in ax.get_lines()})
    assert drawn == pytest.approx(targets)
    n = r.decisions[(r.decisions.governor == "menu@6.19") & r.decisions["first"]]
    assert sum(p.get_height() for p in ax.patches) == len(n[n.oracle_idle_ns < 2**62])


# ---- docs/python.md ----

def test_docs_examples(monkeypatch):
    """Every ```python block of docs/python.md, in order, in one namespace, from the root."""
    import re
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 6
    monkeypatch.chdir(ROOT)
    ns = {}
    for b in blocks:
        exec(compile(b, "docs/python.md", "exec"), ns)


def test_readme_example(monkeypatch, capsys):
    """The README's Python section, as written there."""
    import re
    with open(os.path.join(ROOT, "README.md")) as f:
        m = re.search(r'PYTHONPATH=python /usr/bin/python3 -c "\n(.*?)"\n```', f.read(), re.S)
    assert m, "README.md has no Python example"
    monkeypatch.chdir(ROOT)
    exec(compile(m.group(1), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "menu@6.19" in out and "teo@6.19" in out and "C6" in out
