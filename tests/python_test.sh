#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# python_test.sh MODE SRC BUILD PYTHON [CMAKE]: the Python binding (python/, docs/python.md).
#   pytest    python/tests against this build's library and command
#   install   `pip install ./python` offline into a fresh venv (with Debian's packages), and
#             `cmake --install` into a moved prefix: each imports idlesim from elsewhere, finds
#             its own library (not the build's) and runs a simulation
#   notebook  examples/notebooks/*.ipynb executed top to bottom with nbclient; a cell that
#             fails fails the test
# Without Debian's python3-numpy, -pandas, -matplotlib, -pytest, -nbclient, -ipykernel,
# -venv it says SKIPPED and exits 77 (scripts/setup.sh installs them when run as root; .ci/run
# fails on that skip).
set -eu
mode=$1
src=$(cd "$2" && pwd)
build=$(cd "$3" && pwd)
py=$4
cmake=${5:-cmake}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
if ! "$py" -c 'import numpy, pandas, matplotlib, pytest, nbclient, nbformat, ipykernel, venv' \
	2>"$tmp/err"; then
	echo "SKIPPED: the Python binding's tests: $py lacks $(tail -n 1 "$tmp/err")" \
		"(apt-get install python3-numpy python3-pandas python3-matplotlib python3-pytest" \
		"python3-nbclient python3-ipykernel python3-venv)"
	exit 77
fi
export MPLBACKEND=Agg
export MPLCONFIGDIR="$tmp/mpl" XDG_CACHE_HOME="$tmp/cache" HOME="$tmp/home"
mkdir -p "$HOME"
unset IDLESIM_LIBRARY IDLESIM_BIN PYTHONPATH

case $mode in
pytest)
	cd "$src"
	IDLESIM_LIBRARY="$build/libidlesim.so.0" IDLESIM_BIN="$build/idlesim" PYTHONPATH="$src/python" \
		exec "$py" -m pytest -q -p no:cacheprovider python/tests
	;;
install)
	# pip: offline (no index at all), from the source tree, bundling this build
	"$py" -m venv --system-site-packages "$tmp/venv" || fail "python3 -m venv"
	IDLESIM_BUILD="$build" "$tmp/venv/bin/python" -m pip install --no-index -q "$src/python" \
		>"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; fail "pip install ./python"; }
	cd "$tmp"
	"$tmp/venv/bin/python" - "$src/traces/demo.trace" "$tmp/venv" <<-'PY' || fail "the pip-installed package"
		import sys, idlesim
		assert idlesim._L.path.startswith(sys.argv[2]), idlesim._L.path
		r = idlesim.run(sys.argv[1], "skl", ["menu", "teo"])
		# the same numbers as the command line on the same input
		import json, subprocess, idlesim._lib as L
		cli = json.loads(subprocess.run([L.find_executable(), "run", "-f", "json", "--trace",
		                                 sys.argv[1], "-m", "skl", "-g", "menu", "-g", "teo"],
		                                stdout=subprocess.PIPE, check=True).stdout)["runs"]
		assert list(r.runs.idle_entries) == [c["totals"]["idle_entries"] for c in cli]
		t = idlesim.gen("periodic", cpus=1, duration_s=0.01)
		assert t.cpus == 1
		print("pip install: ok,", idlesim._L.path)
	PY
	# cmake --install: the python component with the library and command, prefix moved after
	"$cmake" --install "$build" --prefix "$tmp/first" >"$tmp/install.log" ||
		{ cat "$tmp/install.log"; fail "cmake --install"; }
	mv "$tmp/first" "$tmp/moved"
	pkg=$(cd "$tmp/moved" && find . -path '*/idlesim/__init__.py' | head -n 1)
	[ -n "$pkg" ] || fail "cmake --install put no idlesim/__init__.py under the prefix"
	PYTHONPATH="$tmp/moved/$(dirname "$(dirname "$pkg")")" "$py" - "$src/traces/demo.trace" \
		"$tmp/moved" <<-'PY' || fail "the cmake-installed package"
		import sys, idlesim, idlesim._lib as L
		assert idlesim._L.path.startswith(sys.argv[2]), idlesim._L.path
		assert L.find_executable().startswith(sys.argv[2]), L.find_executable()
		r = idlesim.run(sys.argv[1], "skl", "menu")
		import json, subprocess
		cli = json.loads(subprocess.run([L.find_executable(), "run", "-f", "json", "--trace",
		                                 sys.argv[1], "-m", "skl", "-g", "menu"],
		                                stdout=subprocess.PIPE, check=True).stdout)["runs"]
		assert r.runs.loc[0, "idle_entries"] == cli[0]["totals"]["idle_entries"]
		print("cmake --install: ok,", idlesim._L.path)
	PY
	;;
notebook)
	for nb in "$src"/examples/notebooks/*.ipynb; do
		IDLESIM_LIBRARY="$build/libidlesim.so.0" IDLESIM_BIN="$build/idlesim" \
			PYTHONPATH="$src/python" "$py" - "$nb" "$tmp/out.ipynb" <<-'PY' || fail "$nb"
			import sys, os, nbformat
			from nbclient import NotebookClient
			nb = nbformat.read(sys.argv[1], as_version=4)
			# run where the notebook lives, so its relative paths hold
			NotebookClient(nb, timeout=600, kernel_name="python3",
			               resources={"metadata": {"path": os.path.dirname(sys.argv[1])}}).execute()
			nbformat.write(nb, sys.argv[2])
			n = sum(1 for c in nb.cells if c.cell_type == "code")
			print("%s: %d code cells ran" % (os.path.basename(sys.argv[1]), n))
		PY
	done
	;;
*)
	fail "unknown mode '$mode'"
	;;
esac
