# SPDX-License-Identifier: GPL-2.0-only
"""Pictures of a Result with matplotlib: residency per state, a CPU's timeline of chosen
states against a reference, and the idle-duration histogram against the states' target
residencies. Each takes an optional Axes and returns the Axes it drew on."""
import numpy as np


def _axes(ax, figsize=(8, 3.5)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=figsize)[1]


def residency(result, ax=None, cpu="all"):
    """Share of idle time in each state (sysfs stateN/time), a group of bars per governor."""
    ax = _axes(ax)
    st = result.states[result.states.cpu.astype(str) == str(cpu)]
    names = list(result.machine.states["name"])
    govs = result.governors
    width = 0.8 / max(len(govs), 1)
    x = np.arange(len(names))
    for k, g in enumerate(govs):
        s = st[st.governor == g].set_index("state")["time_ns"].reindex(range(len(names)),
                                                                       fill_value=0)
        total = s.sum()
        ax.bar(x + k * width - 0.4 + width / 2, 100.0 * s / total if total else s, width,
               label=g)
    ax.set_xticks(x)
    ax.set_xticklabels(names)
    ax.set_ylabel("% of idle time")
    ax.set_title("Residency per state (%s, CPU %s)" % (result.machine.name, cpu))
    ax.legend()
    return ax


def timeline(result, cpu, start_ns, end_ns, governors=None, reference="oracle", ax=None):
    """The state each governor chose on one CPU between start_ns and end_ns, as steps, with
    the reference's (run it too, with explain) drawn dashed. Needs run(..., explain=True)."""
    if result.decisions is None:
        raise ValueError("timeline: the result has no decisions (run with explain=True)")
    ax = _axes(ax)
    d = result.decisions
    d = d[(d.cpu == cpu) & (d.time_ns >= start_ns) & (d.time_ns < end_ns)]
    govs = governors or result.governors
    for k, g in enumerate(govs):
        s = d[d.governor == g]
        if s.empty:
            continue
        is_ref = g.split("@")[0] == reference
        # each choice holds from select() to the wakeup; the CPU runs (no state) in between
        xs, ys = [], []
        for t, w, st in zip(s.time_ns, s.wake_ns, s.state):
            xs += [t / 1e6, min(w, end_ns) / 1e6]
            ys += [st + 0.1 * k, st + 0.1 * k]  # a small offset keeps equal choices apart
            xs.append(np.nan)
            ys.append(np.nan)
        ax.plot(xs, ys, "--" if is_ref else "-", lw=1.5 if is_ref else 2.5, label=g,
                alpha=0.9)
    names = list(result.machine.states["name"])
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel("time (ms)")
    ax.set_title("CPU %d: chosen state" % cpu)
    ax.legend(loc="upper right")
    return ax


def idle_histogram(result, governor=None, ax=None, bins=60):
    """Idle durations (the true time from select() to the wakeup, of each idle period's
    first decision) on a log scale, with each state's target residency drawn in. Needs
    run(..., explain=True)."""
    if result.decisions is None:
        raise ValueError("idle_histogram: the result has no decisions (run with explain=True)")
    ax = _axes(ax)
    g = governor or result.governors[0]
    d = result.decisions
    d = d[(d.governor == g) & d["first"] & (d.oracle_idle_ns < 2**62) & (d.oracle_idle_ns > 0)]
    us = d.oracle_idle_ns.to_numpy(dtype=float) / 1000.0
    if len(us):
        edges = np.logspace(np.log10(us.min() * 0.99), np.log10(us.max() * 1.01), bins)
        ax.hist(us, bins=edges, color="0.6")
    ax.set_xscale("log")
    for _, s in result.machine.states.iterrows():
        if s.target_residency_ns > 0:
            ax.axvline(s.target_residency_ns / 1000.0, color="C3", lw=1)
            ax.text(s.target_residency_ns / 1000.0, ax.get_ylim()[1] * 0.95, " " + s["name"],
                    rotation=90, va="top", fontsize=8, color="C3")
    ax.set_xlabel("idle duration (us)")
    ax.set_ylabel("idle periods")
    ax.set_title("Idle durations and target residencies (%s)" % result.machine.name)
    return ax
