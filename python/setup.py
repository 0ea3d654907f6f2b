"""Builds filterkit's Python package (its metadata: pyproject.toml): the C
extension filterkit._filterkit, statically linked with the library
(libfilterkit.a, compiled -fPIC) and with the pick component and the bench
folders below it (libfk_pick.a: bench/pick/, which filterkit.pick calls
through bench/pick/pick.h; not the CLI), so the installed module needs
nothing else.

The extension is built from the filterkit source tree this folder sits in:
setup.py runs `make -C .. static pick-lib` (or uses the archives named by
FK_LIBFILTERKIT and FK_LIBFKPICK, as `make python` passes them). Copied elsewhere, set
FK_SOURCE_ROOT to a filterkit source tree.
"""
import os
import re
import subprocess
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.environ.get("FK_SOURCE_ROOT") or os.path.join(HERE, ".."))


def fail(msg):
    sys.stderr.write("filterkit setup.py: " + msg + "\n")
    raise SystemExit(1)


if not os.path.isfile(os.path.join(ROOT, "common", "filter.h")):
    fail("the filterkit C sources are not at %s (no common/filter.h). Build the package from "
         "inside a filterkit source tree (pip install --no-build-isolation ./python, or make "
         "python), or set FK_SOURCE_ROOT=/path/to/filterkit." % ROOT)


def version():
    text = open(os.path.join(ROOT, "common", "version.h")).read()
    parts = [re.search(r"#define FK_VERSION_%s\s+(\d+)" % p, text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def static_libraries():
    lib = os.environ.get("FK_LIBFILTERKIT")
    if lib:
        # the pick component's archive beside it unless named (make builds both there)
        pick = os.environ.get("FK_LIBFKPICK") or os.path.join(os.path.dirname(lib), "libfk_pick.a")
        for name, path in (("FK_LIBFILTERKIT", lib), ("FK_LIBFKPICK", pick)):
            if not os.path.isfile(path):
                fail("%s=%s: no such file (make static pick-lib builds it)" % (name, path))
        return [os.path.abspath(pick), os.path.abspath(lib)]
    # Only when a command builds the extension (not for egg_info, sdist, ...).
    building = any(c in sys.argv for c in ("build", "build_ext", "bdist_wheel", "install",
                                           "develop", "editable_wheel"))
    libs = [os.path.join(ROOT, "build", "libfk_pick.a"), os.path.join(ROOT, "build", "libfilterkit.a")]
    if building:
        cmd = ["make", "-C", ROOT, "--no-print-directory", "static", "pick-lib"]
        print("filterkit setup.py: " + " ".join(cmd), flush=True)
        try:
            subprocess.check_call(cmd)
        except (OSError, subprocess.CalledProcessError) as e:
            fail("building the C library failed (%s); run `make static` in %s and read its "
                 "errors (Debian: apt-get install build-essential libxxhash-dev)" % (e, ROOT))
    return libs


LIBS = static_libraries()  # the pick component first: it calls the library
SRC = sorted(os.path.join("src", f) for f in os.listdir(os.path.join(HERE, "src"))
             if f.endswith(".c"))
WARN = ["-Wall", "-Wextra", "-Wmissing-prototypes", "-Wstrict-prototypes", "-Wshadow",
        "-Wundef", "-Wcast-qual"]
if os.environ.get("FK_WERROR") == "1":
    WARN.append("-Werror")

ext = Extension(
    "filterkit._filterkit",
    sources=SRC,
    include_dirs=[ROOT],
    extra_objects=LIBS,
    libraries=["m", "pthread", "dl"],
    depends=LIBS + [os.path.join("src", "pyfk.h"), os.path.join(ROOT, "bench", "pick", "pick.h")],
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden"] + WARN
    + os.environ.get("FK_PY_CFLAGS", "").split(),
    # the library's symbols stay inside the module
    extra_link_args=["-Wl,--exclude-libs,ALL"] + os.environ.get("FK_PY_LDFLAGS", "").split(),
)

# The metadata is pyproject.toml's [project] table; here the version (from
# the C library's header), the extension and the package's files.
setup(
    version=version(),
    ext_modules=[ext],
    packages=["filterkit"],
    package_data={"filterkit": ["py.typed", "*.pyi"]},
    zip_safe=False,
)
