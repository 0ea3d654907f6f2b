# filterkit: the one build entry point. `make help` lists the targets.
#
# Knobs: CC=clang, OPT=-O3, NATIVE=1 (adds -march=native; the default build
# is portable), WERROR=1 (warnings are errors; CI sets it), SAN=address,undefined
# (sanitizer build), BUILD=dir (output folder), CFLAGS/LDFLAGS (added last).
# Install: PREFIX=/usr/local, DESTDIR=, LIBDIR, INCLUDEDIR, BINDIR, MANDIR,
# PKGCONFIGDIR, BASHCOMPDIR, ZSHCOMPDIR.
#
# Every object, archive and program depends on a stamp named after the
# configuration that built it (compiler, every flag, optional dependencies
# found), so changing any of them rebuilds everything it affects, in any
# order of commands.

.DEFAULT_GOAL := all

BUILD   ?= build
PREFIX  ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
MANDIR       ?= $(PREFIX)/share/man
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR   ?= $(PREFIX)/share/zsh/site-functions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
OPT     ?= -O2
NATIVE  ?= 0
WERROR  ?= 0
SAN     ?=

# ($(HASH): a literal '#' that reads the same in every GNU make version;
# make 4.3 passes '\#' inside $(shell ...) through with its backslash.)
HASH := \#

# ------------------------------------------------------------- version
# common/version.h is the one place the version lives.
version_field = $(shell sed -n 's/^$(HASH)define FK_VERSION_$(1) *\([0-9][0-9]*\).*/\1/p' common/version.h)
VERSION_MAJOR := $(call version_field,MAJOR)
VERSION_MINOR := $(call version_field,MINOR)
VERSION_PATCH := $(call version_field,PATCH)
VERSION       := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
SHLIB_DEV     := libfilterkit.so
# The SONAME names the ABI: MAJOR from 1.0 on; before it MAJOR.MINOR, since
# a 0.x minor release may break the ABI (0.3.0 removed exports).
SHLIB_ABI     := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))
SHLIB_SONAME  := $(SHLIB_DEV).$(SHLIB_ABI)
SHLIB_REAL    := $(SHLIB_DEV).$(VERSION)

# --------------------------------------------------------------- flags
WARN_CFLAGS := -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wshadow \
               -Wcast-qual -Wundef
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN_CFLAGS) -I. \
               -fPIC -fvisibility=hidden -MMD -MP
ifeq ($(WERROR),1)
BASE_CFLAGS += -Werror
endif
ifeq ($(NATIVE),1)
BASE_CFLAGS += -march=native
endif
ifneq ($(SAN),)
# -g1: the line tables the sanitizers' reports name frames with; full -g
# (variables, for a debugger: CFLAGS=-g) made these builds about a third
# slower to compile (cuckoo.c: 13.0 s against 8.7 s)
BASE_CFLAGS += -g1 -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=$(SAN)
endif
# DEBUG_INVARIANTS=1: after every merge, grow and load a kind checks the
# table it produced against its invariants (O(size) each; traps when one
# breaks). On in the sanitizer builds (`make test`'s build/san, test-tsan)
# and the fuzz build; never in the library `make` builds.
DEBUG_INVARIANTS ?= $(if $(SAN),1,0)
ifeq ($(DEBUG_INVARIANTS),1)
BASE_CFLAGS += -DFK_DEBUG_INVARIANTS=1
endif
ALL_CFLAGS  = $(BASE_CFLAGS) $(OPT) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN_LDFLAGS) $(LDFLAGS)
LDLIBS_ALL  = -lm -pthread

# ------------------------------------------------------------- modules
# KINDS: one word per filter kind, one folder each (a new kind adds its
# word here and one line to registry/registry.c). Every .c in a kind's
# folder is part of its archive libfk_<kind>.a; no kind includes another,
# all of them need common/. registry/ knows every kind and goes only into
# the all-in-one library. LIB_MODULES: library modules that are not kinds
# (parquet/: reading Parquet files' Bloom filters, over common/ and blocked/).
KINDS    := bloom blocked counting cuckoo scalable fuse quotient window expandable ribbon
LIB_MODULES := parquet
MODULES  := common $(KINDS) $(LIB_MODULES)
find_srcs = $(sort $(shell find $(1) -name '*.c' 2>/dev/null))
$(foreach d,$(MODULES) bench registry,$(eval SRCS_$(d) := $(call find_srcs,$(d))))
mod_srcs  = $(SRCS_$(1))
mod_objs  = $(patsubst %.c,$(BUILD)/%.o,$(call mod_srcs,$(1)))
PRESENT  := $(foreach m,$(MODULES),$(if $(call mod_srcs,$(m)),$(m)))
ARCHIVES := $(foreach m,$(PRESENT),$(BUILD)/libfk_$(m).a)

# The all-in-one library: every module plus the registry of kinds.
REGISTRY_DIR  := registry
REGISTRY_SRCS := $(SRCS_registry)
LIB_OBJS := $(foreach m,$(PRESENT),$(call mod_objs,$(m))) \
            $(patsubst %.c,$(BUILD)/%.o,$(REGISTRY_SRCS))

# The CLI: every .c under bench/ but bench/figures/. The libbloom baseline
# adapter is compiled in only when libbloom-dev's header is installed, and
# loads libbloom.so.1 with dlopen when a bench first runs it: the CLI does
# not link libbloom (`ldd build/filterkit` does not list it). (Set
# HAVE_LIBBLOOM=0 on the command line to leave it out by hand.)
HAVE_LIBBLOOM := $(shell printf '$(HASH)include <bloom.h>\nint main(void){struct bloom b; return sizeof b == 0;}\n' | \
                   $(CC) -x c - -o /dev/null 2>/dev/null && echo 1 || echo 0)
CLI_SRCS := $(filter-out bench/figures/%,$(SRCS_bench))
ifneq ($(HAVE_LIBBLOOM),1)
CLI_SRCS := $(filter-out bench/baselines/libbloom.c,$(CLI_SRCS))
else
CLI_CFLAGS := -DFK_HAVE_LIBBLOOM=1
CLI_LIBS   := -ldl
endif
CLI_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRCS))
CLI      := $(BUILD)/filterkit
# The CLI minus main(), as an archive the tests/test_bench_*.c programs link.
BENCH_LIB := $(BUILD)/libfk_bench.a
BENCH_LIB_OBJS := $(filter-out $(BUILD)/bench/cli/main.o,$(CLI_OBJS))
# The pick component (bench/pick/) and the folders below it, not the CLI
# (bench/cli/, bench/trace/): what the Python extension links.
PICK_LIB := $(BUILD)/libfk_pick.a
PICK_LIB_OBJS := $(filter-out $(BUILD)/bench/cli/% $(BUILD)/bench/trace/%,$(CLI_OBJS))

# The measurement programs beside the bench (bench/figures/<name>.c, one
# program each, run by the scripts there): linked with the all-in-one
# archive, compiled with -g so callgrind_annotate can show their lines
# (bench/figures/insn_count.sh); `make` and `make check` build them.
FIGURE_SRCS := $(filter bench/figures/%,$(SRCS_bench))
FIGURE_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(FIGURE_SRCS))
FIGURES     := $(patsubst %.c,$(BUILD)/%,$(FIGURE_SRCS))
FIGURE_CFLAGS := -g

# The Redis module: $(BUILD)/filterkit-redis.so, a Redis 7.0 module over the
# all-in-one library (redis/; no Redis header needed). `make test` builds
# it too when redis-server is installed, and tests/redis/cli_redis.sh runs it on
# real servers.
REDIS_MODULE := $(BUILD)/filterkit-redis.so
REDIS_OBJS   := $(patsubst %.c,$(BUILD)/%.o,$(wildcard redis/*.c))
HAVE_REDIS   := $(shell command -v redis-server >/dev/null 2>&1 && echo 1)

# The Python package: the CPython extension filterkit._filterkit (python/:
# setup.py, Debian's python3-setuptools) statically linked with
# $(BUILD)/libfilterkit.a, into $(BUILD)/python/lib (import it with
# PYTHONPATH=$(BUILD)/python/lib). `pip install --no-build-isolation ./python`
# builds and installs it the same way. PYTHON picks the interpreter.
# `make test` builds it too when python3-dev is installed, and
# tests/cli_python.sh runs python/tests with pytest and hypothesis.
PYTHON        ?= /usr/bin/python3
PY_BUILD      := $(BUILD)/python
HAVE_PYTHON_DEV := $(shell $(PYTHON) -c 'import sysconfig, os, sys; \
    sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    >/dev/null 2>&1 && echo 1)
PY_SRCS       := $(wildcard python/src/*.c python/src/*.h python/filterkit/*.py python/filterkit/*.pyi) \
                 python/setup.py python/pyproject.toml
PY_STAMP      := $(PY_BUILD)/built.stamp

# Public headers, named (zstd's install-includes habit): common's interface
# and each kind's own <kind>.h, nothing else, so a header the tree marks
# internal (*_internal.h, common/lookup_paths.h, cuckoo/cuckoo_table.h, ...)
# cannot be installed by being forgotten on a list. A new public header is
# added here. tests/cli_install.sh compiles each installed one alone, as C
# and as C++, and fails if one calls itself internal.
PUBLIC_HEADERS := common/status.h common/params.h common/version.h common/filter.h \
                  common/serial.h \
                  $(foreach k,$(filter $(KINDS) $(LIB_MODULES),$(PRESENT)),$(k)/$(k).h) \
                  $(REGISTRY_DIR)/registry.h

# parquet/'s text-to-PLAIN-encoding parser (issue 53).
PUBLIC_HEADERS += $(if $(filter parquet,$(PRESENT)),parquet/parquet_value.h)

# ------------------------------------------------- configuration stamps
# The stamp's name is a checksum of everything that shapes an object; its
# rule deletes the other configurations' stamps, so switching back to an
# earlier configuration rebuilds too. No side effect at parse time: `make -q`
# and `make -n` tell the truth.
stamp_id = $(shell printf '%s' '$(subst ','\'',$(1))' | cksum | cut -d' ' -f1)
CC_VERSION := $(shell $(CC) -dumpfullversion -dumpversion 2>/dev/null | head -n 1)
CONFIG := CC=$(CC) $(CC_VERSION) | CFLAGS=$(ALL_CFLAGS) | CLI_CFLAGS=$(CLI_CFLAGS) | \
          LDFLAGS=$(ALL_LDFLAGS) $(LDLIBS_ALL) $(CLI_LIBS) | AR=$(AR) | NATIVE=$(NATIVE) | \
          SAN=$(SAN) | libbloom=$(HAVE_LIBBLOOM) | version=$(VERSION)
CONFIG_STAMP := $(BUILD)/config-$(call stamp_id,$(CONFIG)).stamp

# Build facts every result file records (compiled into bench/report/runinfo.c only;
# its own stamp changes with the commit, so a new commit rebuilds just it).
FK_GIT_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
                   { git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; } && echo "$$c")
RUNINFO_CFLAGS := $(filter-out -MMD -MP -I.,$(ALL_CFLAGS)) $(CLI_CFLAGS)
COMMIT_STAMP := $(BUILD)/commit-$(call stamp_id,$(FK_GIT_COMMIT)).stamp
$(BUILD)/bench/report/runinfo.o: CLI_CFLAGS += -DFK_BUILD_COMMIT='"$(FK_GIT_COMMIT)"' -DFK_BUILD_CC='"$(CC)"' \
    -DFK_BUILD_CFLAGS='"$(RUNINFO_CFLAGS)"' -DFK_BUILD_NATIVE=$(NATIVE)
$(BUILD)/bench/report/runinfo.o: $(COMMIT_STAMP)

# $(call stamp_rule,stamp,prefix,text): writes $(BUILD)/prefix-<id>.stamp
define stamp_rule
$(1):
	@mkdir -p $(BUILD)
	@rm -f $(BUILD)/$(2)-*.stamp
	@printf '%s\n' '$(subst ','\'',$(3))' > $$@
endef
$(eval $(call stamp_rule,$(CONFIG_STAMP),config,$(CONFIG)))
$(eval $(call stamp_rule,$(COMMIT_STAMP),commit,$(FK_GIT_COMMIT)))

# The one line `make`, `make test` and `make bench` start with.
HAVE_GNUPLOT := $(if $(shell command -v gnuplot 2>/dev/null),yes,no)
CONFIG_LINE := filterkit $(VERSION): libbloom baseline $(if $(filter 1,$(HAVE_LIBBLOOM)),yes,no), \
               gnuplot $(HAVE_GNUPLOT), $(if $(filter 1,$(NATIVE)),native (-march=native),portable), \
               $(CC) $(OPT)$(if $(SAN), SAN=$(SAN)), into $(BUILD)/
ifeq ($(SAY_CONFIG),1)
$(info $(CONFIG_LINE))
endif

# ---------------------------------------------------------------- tests
# tests/test_*.c: one program each, linked with the all-in-one archive.
# tests/link_<module>.c: linked with libfk_<module>.a + libfk_common.a only,
# which proves that module links alone.
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
LINK_SRCS := $(foreach m,$(filter-out common,$(PRESENT)) registry,$(wildcard tests/link_$(m).c))
LINK_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(LINK_SRCS))

# Test-only kinds: tests/<kind>/, the same files by role as a shipped kind,
# one archive each ($(BUILD)/tests/libfk_<kind>.a) that every test program
# links; never part of the library.
TEST_KINDS := fpset
TEST_KIND_ARCHIVES := $(foreach k,$(TEST_KINDS),$(BUILD)/tests/libfk_$(k).a)
TEST_KIND_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(foreach k,$(TEST_KINDS),$(wildcard tests/$(k)/*.c)))

.PHONY: all build lib static bench-lib pick-lib shared cli figures redis python tests-build test test-fast bench \
        bench-quick deps deps-bench deps-test deps-tsan deps-redis deps-redis-server deps-node deps-python deps-python-test \
        config clean help test-tsan

# `make`, `make test`, `make bench` first install what is missing (deps*),
# then build in a second make that sees what they installed.
all: deps
	@$(MAKE) --no-print-directory build SAY_CONFIG=1

build: lib cli figures completion

lib: static shared

static: $(ARCHIVES) $(BUILD)/libfilterkit.a $(BUILD)/include/filterkit
# The CLI minus main() (the Python package links it for filterkit.pick).
bench-lib: $(BENCH_LIB)
pick-lib: $(PICK_LIB)

# The installed include layout, in the tree: $(BUILD)/include/filterkit is
# the source root, so a program written for the installed headers
# (#include <filterkit/bloom/bloom.h>) builds here with -I$(BUILD)/include.
$(BUILD)/include/filterkit:
	@mkdir -p $(BUILD)/include
	@ln -sfn $(CURDIR) $@

shared: $(BUILD)/$(SHLIB_REAL) $(BUILD)/$(SHLIB_SONAME) $(BUILD)/$(SHLIB_DEV)

cli: $(if $(CLI_SRCS),$(CLI))

figures: $(FIGURES)

# `make redis`: the Redis module (above), not part of `make`, then what the
# README's next line runs it with: Debian's redis-server and redis-cli
# (redis-tools), installed as root, else named (the module is built
# either way).
redis: deps $(REDIS_MODULE) deps-redis-server

deps-redis-server: $(REDIS_MODULE)
	-$(call ensure,redis-server,command -v redis-server)
	-$(call ensure,redis-tools,command -v redis-cli)

# `make python`: the Python package (above), not part of `make`.
python: deps deps-python
	@$(MAKE) --no-print-directory $(PY_STAMP)

config:
	@echo '$(CONFIG_LINE)'

help:
	@echo "make              build the libraries, the CLI and the figure programs (bench/figures/) into $(BUILD)/"
	@echo "make test         build and run every test, plain and under ASan+UBSan"
	@echo "make test-fast    run the tests once, without the sanitizer build"
	@echo "make check        every test at small scale, plain build: the loop after each change"
	@echo "make check-KIND   one kind's tests, link test and contract test ($(KINDS))"
	@echo "make test-tsan    the threaded tests under ThreadSanitizer (into BUILD/tsan)"
	@echo "make mutate       plant each kept mutant (tests/mutants/) in a scratch copy; fail if one survives"
	@echo "make bench        run the default benchmark suite, write results/ and plots"
	@echo "make bench-quick  every step of make bench at small sizes: all plots, results-quick/, plots/out-quick/"
	@echo "make plots        redraw plots/out/ from the CSVs in results/ (no bench run)"
	@echo "make analyze      cppcheck over the library, CLI, Redis and Python C sources (.cppcheck-suppressions)"
	@echo "make fuzz         run each libFuzzer target (tests/fuzz/) for FUZZ_SECONDS (30) under ASan+UBSan"
	@echo "make install      install-headers install-static install-shared install-pc install-man install-bin install-completion"
	@echo "make uninstall    remove what make install installed (same PREFIX, DESTDIR, *DIR)"
	@echo "make lib | static | shared | cli | figures    build one part (no package install)"
	@echo "make config       print which optional parts this build has"
	@echo "make redis        build the Redis module $(REDIS_MODULE); as root also install redis-server, redis-tools"
	@echo "make python       build the Python package into $(BUILD)/python/lib (PYTHON=$(PYTHON))"
	@echo "make deps         install missing Debian packages (as root) or say which; what each part needs:"
	@echo "                  deps-bench deps-test deps-tsan deps-fuzz deps-redis deps-node deps-python deps-python-test deps-analyze"
	@echo "                  (deps-redis: redis-server, redis-tools, python3-redis, and nodejs + npm for the node-redis test)"
	@echo "make clean        remove $(BUILD)/"
	@echo "knobs: CC=clang OPT=-O3 NATIVE=1 WERROR=1 SAN=address,undefined BUILD=dir CFLAGS= LDFLAGS="
	@echo "install: PREFIX=$(PREFIX) DESTDIR= LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)"
	@echo "         BINDIR=$(BINDIR) MANDIR=$(MANDIR) PKGCONFIGDIR=$(PKGCONFIGDIR)"
	@echo "         BASHCOMPDIR=$(BASHCOMPDIR) ZSHCOMPDIR=$(ZSHCOMPDIR)"
	@echo "version $(VERSION) (common/version.h)"

# ------------------------------------------------------ Debian packages
# $(call ensure,package,command that succeeds when it is present)
# apt-get's own progress is kept to one line per package fetched, unpacked
# and set up (and the time taken), so a log shows the installation moving.
define ensure
	@if ! { $(2); } >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "filterkit: installing missing Debian package $(1) (apt-get update, then install; this can take minutes)"; \
	    t0=$$(date +%s); st=$$(mktemp); \
	    { (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y $(1)) 2>&1; echo $$? >"$$st"; } | \
	      while IFS= read -r l; do case "$$l" in Get:*|Unpacking*|Setting\ up*) echo "filterkit:   $$l";; esac; done; \
	    rc=$$(cat "$$st"); rm -f "$$st"; \
	    [ "$$rc" = 0 ] || { echo "filterkit: could not install $(1); run: apt-get install $(1)" >&2; exit 1; }; \
	    echo "filterkit: installed $(1) in $$(($$(date +%s) - t0)) s"; \
	  else \
	    echo "filterkit: missing Debian package $(1); install it with: sudo apt-get install $(1)" >&2; exit 1; \
	  fi; \
	fi
endef

deps:
	$(call ensure,libxxhash-dev,printf '$(HASH)include <xxhash.h>\n' | $(CC) -E -x c - -o /dev/null)

# Optional for the bench: without them it runs with no libbloom baseline / no plots.
deps-bench: deps
	-$(call ensure,libbloom-dev,test -f /usr/include/bloom.h)
	-$(call ensure,gnuplot-nox,command -v gnuplot)

# gcc's ThreadSanitizer runtime (clang brings its own).
deps-tsan: deps
	$(call ensure,libtsan2,printf 'int main(void){return 0;}\n' | $(CC) -fsanitize=thread -x c - -o /dev/null)

# What the install, man page and CLI tests use (jq reads pick's JSON, zsh
# tries the completion file in tests/cli_completion.sh; all optional: the
# tests skip what is missing).
deps-test: deps
	-$(call ensure,g++,command -v g++)
	-$(call ensure,pkg-config,command -v pkg-config)
	-$(call ensure,groff-base,command -v groff)
	-$(call ensure,jq,command -v jq)
	-$(call ensure,zsh,command -v zsh)

# The Redis module's tests: redis-server and redis-tools, and python3-redis,
# the client tests/redis/cli_redis_clients.sh drives it with; node and npm for
# tests/redis/cli_redis_node.sh (deps-node; optional: it skips without them).
# It says so before it installs them: nodejs and npm are not Redis.
deps-redis:
	@echo "filterkit: deps-redis: redis-server, redis-tools, python3-redis, and nodejs + npm (Debian's, for the node-redis client test tests/redis/cli_redis_node.sh; optional)"
	@$(MAKE) --no-print-directory deps-node
	$(call ensure,redis-server,command -v redis-server)
	$(call ensure,redis-tools,command -v redis-cli)
	-$(call ensure,python3-redis,/usr/bin/python3 -c 'import redis.commands.bf')

# node and npm: tests/redis/cli_redis_node.sh installs node-redis 5 with npm into
# a cache outside the source tree (~/.cache/filterkit) on its first run.
deps-node:
	-$(call ensure,nodejs,command -v node)
	-$(call ensure,npm,command -v npm)

deps-python:
	$(call ensure,python3-dev,test -f "$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h")
	$(call ensure,python3-setuptools,$(PYTHON) -c 'import setuptools')
	$(call ensure,python3-numpy,$(PYTHON) -c 'import numpy')

# What the Python tests and the example use (all optional for `make test`:
# tests/cli_python.sh says what is missing and skips).
deps-python-test: deps
	-$(call ensure,python3-dev,test -f "$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h")
	-$(call ensure,python3-setuptools,$(PYTHON) -c 'import setuptools')
	-$(call ensure,python3-numpy,$(PYTHON) -c 'import numpy')
	-$(call ensure,python3-venv,$(PYTHON) -c 'import ensurepip')
	-$(call ensure,python3-pip,$(PYTHON) -m pip --version)
	-$(call ensure,python3-pytest,$(PYTHON) -c 'import pytest')
	-$(call ensure,python3-hypothesis,$(PYTHON) -c 'import hypothesis')
	-$(call ensure,python3-matplotlib,$(PYTHON) -c 'import matplotlib')
	-$(call ensure,python3-flor,$(PYTHON) -c 'import flor')
	-$(call ensure,python3-mypy,$(PYTHON) -c 'import mypy.stubtest')

# ---------------------------------------------------------------- rules
# Keep the test objects (make would delete them as intermediates).
.SECONDARY: $(addsuffix .o,$(TEST_BINS) $(LINK_BINS)) $(FIGURE_OBJS)

$(BUILD)/%.o: %.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(if $(filter bench/figures/%,$<),$(FIGURE_CFLAGS),$(if $(filter bench/%,$<),$(CLI_CFLAGS))) -c $< -o $@

# Archives are rebuilt from scratch so a deleted source leaves no stale object.
define archive_rule
$(BUILD)/libfk_$(1).a: $(call mod_objs,$(1))
	@rm -f $$@
	$(AR) rcs $$@ $$(filter %.o,$$^)
endef
$(foreach m,$(PRESENT),$(eval $(call archive_rule,$(m))))

$(BUILD)/libfilterkit.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

$(BUILD)/$(SHLIB_REAL): $(LIB_OBJS) $(CONFIG_STAMP)
	$(CC) -shared -Wl,-soname,$(SHLIB_SONAME) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS_ALL)

$(BUILD)/$(SHLIB_SONAME) $(BUILD)/$(SHLIB_DEV): $(BUILD)/$(SHLIB_REAL)
	ln -sf $(SHLIB_REAL) $@

$(CLI): $(CLI_OBJS) $(BUILD)/libfilterkit.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libfilterkit.a $(CLI_LIBS) $(LDLIBS_ALL)

$(REDIS_MODULE): $(REDIS_OBJS) $(BUILD)/libfilterkit.a
	$(CC) -shared $(ALL_LDFLAGS) -Wl,--exclude-libs,ALL -o $@ $(REDIS_OBJS) $(BUILD)/libfilterkit.a $(LDLIBS_ALL)

# setup.py rebuilds what changed (its depends: the archive and pyfk.h).
$(PY_STAMP): $(PY_SRCS) $(BUILD)/libfilterkit.a $(PICK_LIB) $(CONFIG_STAMP)
	cd python && FK_LIBFILTERKIT=$(abspath $(BUILD)/libfilterkit.a) FK_LIBFKPICK=$(abspath $(PICK_LIB)) \
	  FK_WERROR=$(WERROR) \
	  FK_PY_CFLAGS='$(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all)' \
	  FK_PY_LDFLAGS='$(SAN_LDFLAGS)' \
	  $(PYTHON) setup.py -q build --build-base $(abspath $(PY_BUILD))/tmp \
	  --build-lib $(abspath $(PY_BUILD))/lib --build-temp $(abspath $(PY_BUILD))/tmp
	@touch $@

$(FIGURES): $(BUILD)/bench/figures/%: $(BUILD)/bench/figures/%.o $(BUILD)/libfilterkit.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libfilterkit.a $(LDLIBS_ALL)

$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(TEST_KIND_ARCHIVES) $(BUILD)/libfilterkit.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(TEST_KIND_ARCHIVES) $(BUILD)/libfilterkit.a $(LDLIBS_ALL)

# tests/test_bench_*.c test the CLI's parts, so they also link libfk_bench.a.
$(BUILD)/tests/test_bench_%: $(BUILD)/tests/test_bench_%.o $(BENCH_LIB) $(TEST_KIND_ARCHIVES) $(BUILD)/libfilterkit.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BENCH_LIB) $(TEST_KIND_ARCHIVES) $(BUILD)/libfilterkit.a $(CLI_LIBS) $(LDLIBS_ALL)

define test_kind_rule
$(BUILD)/tests/libfk_$(1).a: $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/$(1)/*.c))
	@rm -f $$@
	$(AR) rcs $$@ $$(filter %.o,$$^)
endef
$(foreach k,$(TEST_KINDS),$(eval $(call test_kind_rule,$(k))))

$(BENCH_LIB): $(BENCH_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

$(PICK_LIB): $(PICK_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

# LINK_WITH_<kind>: the other archives a kind's link test needs: the
# growing wrapper is linked with the one kind it grows in its test.
LINK_WITH_scalable := $(BUILD)/libfk_bloom.a
# parquet/ hands out blocked filters.
LINK_WITH_parquet := $(BUILD)/libfk_blocked.a
.SECONDEXPANSION:
$(BUILD)/tests/link_%: $(BUILD)/tests/link_%.o $(BUILD)/libfk_%.a $$(LINK_WITH_$$*) $(BUILD)/libfk_common.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libfk_$*.a $(LINK_WITH_$*) $(BUILD)/libfk_common.a $(LDLIBS_ALL)

# The registry lives only in the all-in-one library: its program links that alone.
$(BUILD)/tests/link_registry: $(BUILD)/tests/link_registry.o $(BUILD)/libfilterkit.a $(CONFIG_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libfilterkit.a $(LDLIBS_ALL)

# ---------------------------------------------------------------- tests
tests-build: lib cli figures $(TEST_BINS) $(LINK_BINS)
# The Redis module and the Python package when their tools are installed.
ifeq ($(HAVE_REDIS),1)
tests-build: $(REDIS_MODULE)
endif
ifeq ($(HAVE_PYTHON_DEV),1)
tests-build: $(PY_STAMP)
endif

# `make test`: everything twice, plain and under AddressSanitizer + UBSan;
# the runner ends with one line `N passed, N failed`.
test: deps-test deps-python-test
	@$(MAKE) --no-print-directory tests-build SAY_CONFIG=1
	@$(MAKE) --no-print-directory tests-build BUILD=$(BUILD)/san SAN=address,undefined OPT=-O1
	@tests/run.sh $(BUILD) $(BUILD)/san

test-fast: deps-test deps-python-test
	@$(MAKE) --no-print-directory tests-build SAY_CONFIG=1
	@tests/run.sh $(BUILD)

# `make check`: the loop a contributor runs after every change: every
# test, the same assertions at small scale (FK_TEST_SCALE=small: fewer keys
# and trials; tests/check.h), plain build only. `make test` and CI keep the
# full scale and add the sanitizer build.
check: deps-test
	@$(MAKE) --no-print-directory tests-build SAY_CONFIG=1
	@FK_TEST_SCALE=small tests/run.sh $(BUILD)

# `make check-<kind>` (check-cuckoo, check-scalable, ...): every test
# program's cases for that kind, at small scale: its own tests
# (tests/test_<kind>.c, tests/test_<kind>_*.c), its link test
# (tests/link_<kind>.c), and the programs that loop over every kind run
# with FK_TEST_KIND=<kind> (tests/check.h: check_kind_selected; cuckoo also
# runs scalable-cuckoo, scalable every scalable-*): the contract
# (test_contract), save/load and the golden files (test_serial), the batch
# calls (test_batch), and the hashing every kind derives from, pinned
# against xxHash (test_hash). Then the CLI scripts of that kind that take
# seconds (CHECK_SCRIPTS_<kind>) and tests/cli_serial.sh (save, load and
# info through the CLI for every kind). A bug in a kind's core, batch,
# serialization or hash path fails its check target (tests/mutants/).
CHECK_KINDS := $(addprefix check-,$(KINDS))
.PHONY: check $(CHECK_KINDS)
KIND_LOOP_TESTS := test_contract test_serial test_batch test_hash
CHECK_SCRIPTS_blocked  := tests/cli_sbbf.sh
CHECK_SCRIPTS_fuse     := tests/cli_fuse.sh
CHECK_SCRIPTS_scalable := tests/cli_scalable.sh
CHECK_SCRIPTS_window   := tests/cli_window.sh
kind_tests = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_$(1).c tests/test_$(1)_*.c tests/link_$(1).c)) \
             $(patsubst %,$(BUILD)/tests/%,$(KIND_LOOP_TESTS))
kind_scripts = $(CHECK_SCRIPTS_$(1)) tests/cli_serial.sh
$(CHECK_KINDS): check-%: deps
	@$(MAKE) --no-print-directory $(call kind_tests,$*) $(CLI)
	@FK_TEST_SCALE=small FK_TEST_KIND=$* FK_BUILD=$(BUILD) tests/run.sh $(call kind_tests,$*) $(call kind_scripts,$*)

# `make mutate`: plants each kept mutant (tests/mutants/*.patch, one bug
# each, its header naming the test expected to catch it) in a scratch copy
# of the tree and its build folder, runs that test, then `make check` if
# it passed, and fails if any mutant survives; prints mutant, catching
# test, seconds (tests/mutate.sh). Before each release, not in every CI run.
.PHONY: mutate
mutate: deps
	@tests/mutate.sh

# `make test-tsan`: the programs that run threads on one filter
# (TSAN_TESTS) and the CLI's threaded commands (TSAN_SCRIPTS, against a CLI
# built the same way), under ThreadSanitizer in their own folder; any
# report fails them. CC=clang works too.
TSAN_TESTS   := test_concurrent test_concurrent_kinds test_window_concurrent test_fuse test_ribbon
TSAN_SCRIPTS := tests/cli_threads.sh
test-tsan: deps-tsan
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan SAN=thread OPT=-O1 \
	  $(patsubst %,$(BUILD)/tsan/tests/%,$(TSAN_TESTS)) $(BUILD)/tsan/filterkit
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66 $${TSAN_OPTIONS:-}" FK_BUILD=$(BUILD)/tsan \
	  tests/run.sh $(patsubst %,$(BUILD)/tsan/tests/%,$(TSAN_TESTS)) $(TSAN_SCRIPTS)

# ---------------------------------------------------------------- fuzz
# `make fuzz`: builds tests/fuzz/fuzz_*.c with clang's libFuzzer under
# ASan + UBSan and runs each for FUZZ_SECONDS (-j2 runs two at once).
# Seeds come from tests/fuzz/corpus/<name>/ (read only); new inputs, logs
# and crash files go to $(BUILD)/fuzz/.
FUZZ_SECONDS  ?= 30
FUZZ_CC       ?= clang
FUZZ_BUILD    := $(BUILD)/fuzz
FUZZ_NAMES    := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB_SRCS := $(foreach m,$(PRESENT),$(call mod_srcs,$(m))) $(REGISTRY_SRCS)
FUZZ_COMMON   := -std=c11 -D_POSIX_C_SOURCE=200809L -DFK_DEBUG_INVARIANTS=1 -I. -Wall -Wextra -Werror -g -O1 \
                 -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_CFLAGS   := $(FUZZ_COMMON) -fsanitize=fuzzer,address,undefined
# The library is compiled once for every target (instrumented for coverage,
# without libFuzzer's main: fuzzer-no-link); compiling it into each of the
# five took about two of CI's minutes.
FUZZ_OBJS     := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(FUZZ_LIB_SRCS))

.PHONY: fuzz fuzz-build deps-fuzz
fuzz: deps-fuzz
	$(MAKE) --no-print-directory $(addprefix fuzz-run-,$(FUZZ_NAMES))
	@echo "fuzz: $(FUZZ_NAMES): $(FUZZ_SECONDS)s each, no failure"

fuzz-build: deps-fuzz $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_NAMES))

deps-fuzz:
	$(call ensure,clang,command -v $(FUZZ_CC))
	$(call ensure,libclang-rt-14-dev,printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' | \
	  $(FUZZ_CC) -x c - -fsanitize=fuzzer -o /dev/null)

# The CLI's argument parser lives in bench/cli/, outside the library.
FUZZ_CLI_SRCS := $(filter %/args.c %/operands.c %/suggest.c,$(CLI_SRCS))
$(FUZZ_BUILD)/fuzz_cli_args: FUZZ_EXTRA_SRCS := $(FUZZ_CLI_SRCS)
$(FUZZ_BUILD)/fuzz_cli_args: $(FUZZ_CLI_SRCS) $(shell find bench -name '*.h')
# The Redis module's value decoder, fuzzed like the library's loader.
$(FUZZ_BUILD)/fuzz_redis_value: FUZZ_EXTRA_SRCS := redis/value.c
$(FUZZ_BUILD)/fuzz_redis_value: redis/value.c redis/value.h

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_COMMON) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@
-include $(FUZZ_OBJS:.o=.d)
.SECONDARY: $(FUZZ_OBJS)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) $(shell find $(PRESENT) -name '*.h')
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_EXTRA_SRCS) $(FUZZ_OBJS) -lm

# One run: prints the executions and new coverage; on failure the log tail.
fuzz-run-%: $(FUZZ_BUILD)/fuzz_%
	@mkdir -p $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/crashes
	@echo "fuzz: $* for $(FUZZ_SECONDS)s"
	@ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1 \
	  $< -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(if $(filter cli_args,$*),-close_fd_mask=3) \
	  -artifact_prefix=$(FUZZ_BUILD)/crashes/$*- $(FUZZ_BUILD)/corpus/$* \
	  $(wildcard tests/fuzz/corpus/$*) $(if $(filter load,$*),tests/golden) >$(FUZZ_BUILD)/$*.log 2>&1 || \
	  { tail -n 40 $(FUZZ_BUILD)/$*.log; echo "fuzz: $* FAILED (log: $(FUZZ_BUILD)/$*.log)"; exit 1; }
	@echo "fuzz: $*: $$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_BUILD)/$*.log)," \
	  "$$(grep -o 'cov: [0-9]* ft: [0-9]*' $(FUZZ_BUILD)/$*.log | tail -n 1)"

# ------------------------------------------------------------- analyze
# `make analyze`: Debian's cppcheck over the C sources we ship (the
# library, the CLI and figure programs, the Redis module, the Python
# extension), in the build's own configuration: the -D lines stand for
# what the system headers cppcheck does not read would say (<stdatomic.h>'s
# lock-free macros, Python.h's version), so it checks the code the compiler
# builds, once (--library=python: cppcheck's own list of Python.h's macros,
# Py_RETURN_NONE and the like). Its findings fail the target; the few it gets wrong are in
# .cppcheck-suppressions, each with its reason, and a real one is fixed,
# not listed. Results are cached in $(BUILD)/cppcheck (a second run checks
# only what changed). About a minute on 2 cores; CI runs it in its short tier.
ANALYZE_JOBS ?= 2
ANALYZE_SRCS := $(foreach m,$(PRESENT),$(call mod_srcs,$(m))) $(REGISTRY_SRCS) $(SRCS_bench) \
                $(wildcard redis/*.c python/src/*.c)
ANALYZE_FLAGS := --std=c11 --enable=warning,portability,performance --library=python --inline-suppr \
                 --suppressions-list=.cppcheck-suppressions --error-exitcode=1 --quiet \
                 -I. -D_POSIX_C_SOURCE=200809L -DATOMIC_CHAR_LOCK_FREE=2 -DATOMIC_INT_LOCK_FREE=2 \
                 -DATOMIC_LLONG_LOCK_FREE=2 -DPY_VERSION_HEX=0x030B0000 \
                 --template='{file}:{line}:{column}: {severity}: {message} [{id}]'
.PHONY: analyze deps-analyze
analyze: deps-analyze
	@mkdir -p $(BUILD)/cppcheck
	@echo "cppcheck $(ANALYZE_FLAGS) -j$(ANALYZE_JOBS) ... ($(words $(ANALYZE_SRCS)) files)"
	@cppcheck $(ANALYZE_FLAGS) -j$(ANALYZE_JOBS) --cppcheck-build-dir=$(BUILD)/cppcheck $(ANALYZE_SRCS)
	@echo "analyze: cppcheck found nothing in $(words $(ANALYZE_SRCS)) files"

deps-analyze:
	$(call ensure,cppcheck,command -v cppcheck)

# --------------------------------------------------------------- bench
bench: deps-bench
	@$(MAKE) --no-print-directory build SAY_CONFIG=1
	@bench/scripts/run_default.sh $(BUILD)

# Every step of `make bench` at small sizes (n up to 300k, one repeat) into
# results-quick/ and plots/out-quick/: every plot drawn in a minute or two,
# to check the pipeline (its figures are not for quoting).
bench-quick: deps-bench
	@$(MAKE) --no-print-directory build SAY_CONFIG=1
	@bench/scripts/run_default.sh --quick $(BUILD)

# `make plots`: redraws plots/out/ from the CSVs already in results/ without
# running the bench (bench/scripts/plots.sh: a failed plot leaves no empty image and
# says why).
.PHONY: plots
plots:
	@bench/scripts/plots.sh results plots/out

# ------------------------------------------------------------- install
# Never installs packages: it copies files, and builds what is missing with
# the same knobs (pass the BUILD, SAN, ... the build used).
.PHONY: install install-headers install-static install-shared install-pc install-man install-bin \
        install-completion uninstall uninstall-headers uninstall-static uninstall-shared uninstall-pc \
        uninstall-man uninstall-bin uninstall-completion
install: install-headers install-static install-shared install-pc install-man install-bin install-completion

install-headers:
	@for h in $(PUBLIC_HEADERS); do \
	  install -D -m 644 $$h $(DESTDIR)$(INCLUDEDIR)/filterkit/$$h || exit 1; done
	@echo "installed $(words $(PUBLIC_HEADERS)) headers under $(DESTDIR)$(INCLUDEDIR)/filterkit/"

install-static: static
	install -d $(DESTDIR)$(LIBDIR)
	install -m 644 $(BUILD)/libfilterkit.a $(ARCHIVES) $(DESTDIR)$(LIBDIR)/

install-shared: shared
	install -d $(DESTDIR)$(LIBDIR)
	install -m 755 $(BUILD)/$(SHLIB_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SHLIB_REAL) $(DESTDIR)$(LIBDIR)/$(SHLIB_SONAME)
	ln -sf $(SHLIB_REAL) $(DESTDIR)$(LIBDIR)/$(SHLIB_DEV)

# The .pc says where this very command puts things: paths under PREFIX are
# written relative to ${prefix}, others as given.
pc_path = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
install-pc: filterkit.pc.in common/version.h
	install -d $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_path,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_path,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	    filterkit.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/filterkit.pc
	@chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/filterkit.pc

install-man:
	install -D -m 644 filterkit.1 $(DESTDIR)$(MANDIR)/man1/filterkit.1

install-bin: cli
	$(if $(CLI_SRCS),install -D -m 755 $(CLI) $(DESTDIR)$(BINDIR)/filterkit)

# bash and zsh completion, generated by the CLI from its own command and
# option tables (`filterkit completion bash|zsh`).
COMPLETIONS := $(BUILD)/completion/filterkit.bash $(BUILD)/completion/_filterkit
$(BUILD)/completion/filterkit.bash: $(CLI)
	@mkdir -p $(dir $@)
	$(CLI) completion bash > $@.tmp && mv $@.tmp $@
$(BUILD)/completion/_filterkit: $(CLI)
	@mkdir -p $(dir $@)
	$(CLI) completion zsh > $@.tmp && mv $@.tmp $@
completion: $(if $(CLI_SRCS),$(COMPLETIONS))
.PHONY: completion

install-completion: completion
	$(if $(CLI_SRCS),install -D -m 644 $(BUILD)/completion/filterkit.bash $(DESTDIR)$(BASHCOMPDIR)/filterkit)
	$(if $(CLI_SRCS),install -D -m 644 $(BUILD)/completion/_filterkit $(DESTDIR)$(ZSHCOMPDIR)/_filterkit)

uninstall-completion:
	rm -f $(DESTDIR)$(BASHCOMPDIR)/filterkit $(DESTDIR)$(ZSHCOMPDIR)/_filterkit

uninstall: uninstall-headers uninstall-static uninstall-shared uninstall-pc uninstall-man uninstall-bin \
           uninstall-completion

# Removes the headers this tree would install, then the folders left empty.
uninstall-headers:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/filterkit/,$(PUBLIC_HEADERS))
	@[ ! -d "$(DESTDIR)$(INCLUDEDIR)/filterkit" ] || \
	  find "$(DESTDIR)$(INCLUDEDIR)/filterkit" -depth -type d -empty -delete

uninstall-static:
	rm -f $(DESTDIR)$(LIBDIR)/libfilterkit.a $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(ARCHIVES)))

uninstall-shared:
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(SHLIB_REAL) $(SHLIB_SONAME) $(SHLIB_DEV))

uninstall-pc:
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/filterkit.pc

uninstall-man:
	rm -f $(DESTDIR)$(MANDIR)/man1/filterkit.1

uninstall-bin:
	rm -f $(DESTDIR)$(BINDIR)/filterkit

clean:
	rm -rf $(BUILD)

# The header dependencies -MMD wrote for this folder's objects.
-include $(patsubst %.o,%.d,$(LIB_OBJS) $(CLI_OBJS) $(FIGURE_OBJS) $(REDIS_OBJS) $(TEST_KIND_OBJS) $(addsuffix .o,$(TEST_BINS) $(LINK_BINS)))
