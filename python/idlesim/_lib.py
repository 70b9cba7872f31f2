# SPDX-License-Identifier: GPL-2.0-only
"""libidlesim through ctypes: where the library is, its structs, its functions' types.

ctypes (the standard library) rather than cffi: the binding needs no compiler at install
time and no package outside Debian's python3, and ctypes.CDLL releases the GIL around every
call into the library, so simulations on several Python threads run at once (docs/python.md).
The structs below mirror include/idlesim.h field by field.
"""
import ctypes
import ctypes.util
import os
import shutil

_HERE = os.path.dirname(os.path.abspath(__file__))
_SONAME = "libidlesim.so.0"


def _installed_paths():
    """(library, executable) written by `cmake --install` next to this file, or (None, None)."""
    try:
        from . import _paths  # generated at install time; absent in the source tree
    except ImportError:
        return None, None
    lib = os.path.normpath(os.path.join(_HERE, _paths.LIBRARY)) if _paths.LIBRARY else None
    exe = os.path.normpath(os.path.join(_HERE, _paths.EXECUTABLE)) if _paths.EXECUTABLE else None
    return lib, exe


def _candidates(env, bundled, installed, tree, system):
    """The first existing path of: $env, the copy bundled by pip, the cmake install's, the
    source tree's build/ (imported from python/ of a built checkout), the system's."""
    if os.environ.get(env):
        return [os.environ[env]]
    out = [bundled, installed, tree]
    return [p for p in out if p] + ([system] if system else [])


def find_library():
    lib, _ = _installed_paths()
    tree = os.path.join(_HERE, "..", "..", os.environ.get("IDLESIM_BUILD", "build"), _SONAME)
    cands = _candidates("IDLESIM_LIBRARY", os.path.join(_HERE, "_native", _SONAME), lib, tree,
                        ctypes.util.find_library("idlesim"))
    for p in cands:
        if p and (os.path.exists(p) or not os.path.sep in p):
            return p
    raise ImportError("idlesim: libidlesim not found (looked in: %s); build idlesim first "
                      "(scripts/setup.sh), or set IDLESIM_LIBRARY to libidlesim.so.0"
                      % ", ".join(str(p) for p in cands))


def find_executable():
    """The idlesim command, for what the library does not do (gen, compare)."""
    _, exe = _installed_paths()
    tree = os.path.join(_HERE, "..", "..", os.environ.get("IDLESIM_BUILD", "build"), "idlesim")
    cands = _candidates("IDLESIM_BIN", os.path.join(_HERE, "_native", "idlesim"), exe, tree,
                        shutil.which("idlesim"))
    for p in cands:
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise FileNotFoundError("idlesim: the idlesim command not found (looked in: %s); build "
                            "idlesim first, or set IDLESIM_BIN" % ", ".join(str(p) for p in cands))


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("file", ctypes.c_char * 256), ("line", ctypes.c_int),
                ("column", ctypes.c_int), ("message", ctypes.c_char * 320)]


class StateStats(ctypes.Structure):
    _fields_ = [("usage", ctypes.c_uint64), ("time_ns", ctypes.c_int64),
                ("above", ctypes.c_uint64), ("below", ctypes.c_uint64),
                ("disabled", ctypes.c_int)]


WAKE_CAUSES = ("timer", "irq", "ipi", "tick", "poll")  # enum idlesim_wake_cause, in order


class Summary(ctypes.Structure):
    _fields_ = [("start_ns", ctypes.c_int64), ("end_ns", ctypes.c_int64),
                ("idle_entries", ctypes.c_uint64), ("above", ctypes.c_uint64),
                ("below", ctypes.c_uint64), ("hits", ctypes.c_uint64),
                ("above_pct", ctypes.c_double), ("below_pct", ctypes.c_double),
                ("hits_pct", ctypes.c_double), ("busy_pct", ctypes.c_double),
                ("wakeups", ctypes.c_uint64 * len(WAKE_CAUSES)),
                ("lat_samples", ctypes.c_uint64), ("lat_mean_ns", ctypes.c_double),
                ("lat_p50_ns", ctypes.c_int64), ("lat_p99_ns", ctypes.c_int64),
                ("lat_max_ns", ctypes.c_int64),
                ("energy_j", ctypes.c_double), ("idle_energy_j", ctypes.c_double),
                ("transition_energy_j", ctypes.c_double), ("package_energy_j", ctypes.c_double),
                ("avg_power_w", ctypes.c_double), ("has_regret", ctypes.c_int),
                ("regret_energy_j", ctypes.c_double), ("regret_energy_pct", ctypes.c_double),
                ("regret_package_j", ctypes.c_double), ("regret_lat_mean_ns", ctypes.c_double)]


class Decision(ctypes.Structure):
    _fields_ = [("time_ns", ctypes.c_int64), ("cpu", ctypes.c_int), ("state", ctypes.c_int),
                ("stop_tick", ctypes.c_int), ("tick_stopped_before", ctypes.c_int),
                ("tick_stopped_after", ctypes.c_int), ("sleep_length_ns", ctypes.c_int64),
                ("delta_tick_ns", ctypes.c_int64), ("latency_req_ns", ctypes.c_int64),
                ("oracle_idle_ns", ctypes.c_int64), ("wake_ns", ctypes.c_int64),
                ("cause", ctypes.c_int), ("residency_ns", ctypes.c_int64),
                ("verdict", ctypes.c_int), ("first", ctypes.c_int), ("nr_vars", ctypes.c_int)]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_E = ctypes.POINTER(Error)
_I64 = ctypes.c_int64
_LL = ctypes.c_longlong
_SIGS = {
    "idlesim_version": (_S, []),
    "idlesim_error_string": (_S, [_E, ctypes.c_char_p, ctypes.c_size_t]),
    "idlesim_machine_builtin_name": (_S, [ctypes.c_uint]),
    "idlesim_machine_load": (_P, [_S, _E]),
    "idlesim_machine_from_json": (_P, [_S, _S, _E]),
    "idlesim_machine_free": (None, [_P]),
    "idlesim_machine_name": (_S, [_P]),
    "idlesim_machine_cpus": (ctypes.c_int, [_P]),
    "idlesim_machine_state_count": (ctypes.c_int, [_P]),
    "idlesim_machine_state_name": (_S, [_P, ctypes.c_int]),
    "idlesim_machine_exit_latency_ns": (_I64, [_P, ctypes.c_int]),
    "idlesim_machine_target_residency_ns": (_I64, [_P, ctypes.c_int]),
    "idlesim_trace_open": (_P, [_S, _E]),
    "idlesim_trace_from_string": (_P, [_S, _S, _E]),
    "idlesim_trace_free": (None, [_P]),
    "idlesim_trace_name": (_S, [_P]),
    "idlesim_trace_cpus": (ctypes.c_int, [_P]),
    "idlesim_trace_hz": (ctypes.c_int, [_P]),
    "idlesim_trace_reference_runs": (ctypes.c_ulong, [_P]),
    "idlesim_governor_name": (_S, [ctypes.c_uint]),
    "idlesim_governor_resolve": (_S, [_S]),
    "idlesim_governor_tunable": (ctypes.c_int, [_S, ctypes.c_uint, ctypes.POINTER(_S),
                                                ctypes.POINTER(_LL), ctypes.POINTER(_LL),
                                                ctypes.POINTER(_LL)]),
    "idlesim_options_new": (_P, []),
    "idlesim_options_free": (None, [_P]),
    "idlesim_options_set_hz": (ctypes.c_int, [_P, ctypes.c_int, _E]),
    "idlesim_options_set_latency_limit_ns": (ctypes.c_int, [_P, _I64, _E]),
    "idlesim_options_disable_state": (ctypes.c_int, [_P, _S, _E]),
    "idlesim_options_enable_state": (ctypes.c_int, [_P, _S, _E]),
    "idlesim_options_set_tunable": (ctypes.c_int, [_P, _S, _S, _LL, _E]),
    "idlesim_options_set_wake_model": (ctypes.c_int, [_P, _S, _E]),
    "idlesim_options_set_wake_seed": (None, [_P, ctypes.c_uint64]),
    "idlesim_options_set_decision_log": (None, [_P, ctypes.c_long]),
    "idlesim_run": (_P, [_P, _P, _S, _P, _E]),
    "idlesim_result_free": (None, [_P]),
    "idlesim_result_governor": (_S, [_P]),
    "idlesim_result_cpus": (ctypes.c_int, [_P]),
    "idlesim_result_hz": (ctypes.c_int, [_P]),
    "idlesim_result_state_count": (ctypes.c_int, [_P]),
    "idlesim_result_state_name": (_S, [_P, ctypes.c_int]),
    "idlesim_result_state": (ctypes.c_int, [_P, ctypes.c_int, ctypes.c_int,
                                            ctypes.POINTER(StateStats)]),
    "idlesim_result_summary": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(Summary)]),
    "idlesim_result_decision_count": (ctypes.c_size_t, [_P]),
    "idlesim_result_decision": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(Decision)]),
    "idlesim_result_decision_var": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.c_int,
                                                   ctypes.POINTER(_S), ctypes.POINTER(_S),
                                                   ctypes.POINTER(_LL)]),
    # returns a pointer to free with idlesim_free, hence c_void_p and not c_char_p
    "idlesim_result_config_json": (_P, [_P]),
    "idlesim_free": (None, [_P]),
}


def load():
    """The library with every function typed; ImportError if it cannot be found or is too old."""
    path = find_library()
    try:
        lib = ctypes.CDLL(path)  # CDLL (not PyDLL): the GIL is released during each call
    except OSError as e:
        raise ImportError("idlesim: cannot load %s: %s" % (path, e)) from None
    for name, (res, args) in _SIGS.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            raise ImportError("idlesim: %s lacks %s(): a libidlesim older than this binding"
                              % (path, name)) from None
        f.restype = res
        f.argtypes = args
    lib.path = path
    return lib
