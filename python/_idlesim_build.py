# SPDX-License-Identifier: GPL-2.0-only
"""A PEP 517 build backend for the idlesim package, in-tree so that `pip install ./python`
needs nothing from the network: it zips idlesim/*.py with the build directory's
libidlesim.so.0 and idlesim command (idlesim/_native/) into a wheel for this platform.

The build directory is $IDLESIM_BUILD, else ../build next to this file.
"""
import base64
import hashlib
import os
import re
import sysconfig
import zipfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_NAME = "idlesim"


def _build_dir():
    b = os.environ.get("IDLESIM_BUILD") or os.path.join(_HERE, "..", "build")
    return os.path.abspath(b if os.path.isabs(b) else os.path.join(_HERE, "..", b))


def _version():
    """The version of the header the library was built from (include/idlesim.h)."""
    with open(os.path.join(_HERE, "..", "include", "idlesim.h")) as f:
        h = f.read()
    parts = [re.search(r"#define IDLESIM_VERSION_%s (\d+)" % k, h).group(1)
             for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: Simulator of the Linux cpuidle governors: Python binding over libidlesim\n"
            "License: GPL-2.0-only\nRequires-Python: >=3.9\nRequires-Dist: numpy\n"
            "Requires-Dist: pandas\nRequires-Dist: matplotlib\n" % (_NAME, _version()))


def _files():
    """(path in the wheel, bytes, executable) of every file."""
    out = []
    pkg = os.path.join(_HERE, _NAME)
    for n in sorted(os.listdir(pkg)):
        if n.endswith(".py") and n != "_paths.py":
            with open(os.path.join(pkg, n), "rb") as f:
                out.append(("%s/%s" % (_NAME, n), f.read(), False))
    build = _build_dir()
    for n, exe in (("libidlesim.so.0", False), ("idlesim", True)):
        p = os.path.join(build, n)
        if not os.path.isfile(p):
            raise RuntimeError("idlesim: %s not found: build idlesim first (scripts/setup.sh), "
                               "or point IDLESIM_BUILD at its build directory" % p)
        with open(os.path.realpath(p), "rb") as f:
            out.append(("%s/_native/%s" % (_NAME, n), f.read(), exe))
    return out


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (name, digest, len(data))


def _write(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, exe in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.create_system = 3  # unix: pip keeps the mode of a regular file (S_IFREG)
            info.external_attr = (0o100755 if exe else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, "%s-%s.dist-info" % (_NAME, _version()))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_metadata())
    return os.path.basename(d)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    ver = _version()
    info = "%s-%s.dist-info" % (_NAME, ver)
    entries = _files()
    wheel = "Wheel-Version: 1.0\nGenerator: idlesim _idlesim_build\nRoot-Is-Purelib: false\n" \
            "Tag: %s\n" % _tag()
    entries += [(info + "/METADATA", _metadata().encode(), False),
                (info + "/WHEEL", wheel.encode(), False)]
    record = "".join(_record_line(n, d) for n, d, _ in entries) + info + "/RECORD,,\n"
    entries.append((info + "/RECORD", record.encode(), False))
    name = "%s-%s-%s.whl" % (_NAME, ver, _tag())
    _write(os.path.join(wheel_directory, name), entries)
    return name


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("idlesim: no source distribution of the binding alone: it is built "
                       "from the idlesim tree (pip install ./python after the build)")
