# filterkit: the one build entry point. `make help` lists the targets.
#
# Knobs: CC=clang, OPT=-O3, NATIVE=1 (adds -march=native; the default build
# is portable), WERROR=1 (warnings are errors; CI sets it), SAN=address,undefined
# (sanitizer build), BUILD=dir (output folder), PREFIX=/usr/local, DESTDIR=.

.DEFAULT_GOAL := all

BUILD   ?= build
PREFIX  ?= /usr/local
OPT     ?= -O2
NATIVE  ?= 0
WERROR  ?= 0
SAN     ?=

BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -I. \
               -fPIC -fvisibility=hidden -MMD -MP
ifeq ($(WERROR),1)
BASE_CFLAGS += -Werror
endif
ifeq ($(NATIVE),1)
BASE_CFLAGS += -march=native
endif
ifneq ($(SAN),)
BASE_CFLAGS += -g -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=$(SAN)
endif
ALL_CFLAGS  = $(BASE_CFLAGS) $(OPT) $(CFLAGS)
ALL_LDFLAGS = $(SAN_LDFLAGS) $(LDFLAGS)
LDLIBS_ALL  = -lm

# ------------------------------------------------------------- modules
# Each folder is one module and one archive; a module is present once it
# has sources. No module includes another; all of them need common/.
MODULES  := common bloom counting cuckoo
mod_srcs  = $(wildcard $(1)/*.c)
mod_objs  = $(patsubst %.c,$(BUILD)/%.o,$(call mod_srcs,$(1)))
PRESENT  := $(foreach m,$(MODULES),$(if $(call mod_srcs,$(m)),$(m)))
ARCHIVES := $(foreach m,$(PRESENT),$(BUILD)/libfk_$(m).a)

# The all-in-one library: every module plus the name -> ops registry.
REGISTRY_SRCS := bench/registry.c bench/counting_to_bloom.c
LIB_OBJS := $(foreach m,$(PRESENT),$(call mod_objs,$(m))) \
            $(patsubst %.c,$(BUILD)/%.o,$(REGISTRY_SRCS))

# The CLI (bench/, minus the registry). The libbloom baseline adapter is
# compiled in only when libbloom-dev is installed.
# ($(HASH): a literal '#' that reads the same in every GNU make version;
# make 4.3 passes '\#' inside $(shell ...) through with its backslash.)
HASH := \#
HAVE_LIBBLOOM := $(shell printf '$(HASH)include <bloom.h>\nint main(void){return bloom_version()==0;}\n' | \
                   $(CC) -x c - -lbloom -o /dev/null 2>/dev/null && echo 1)
CLI_SRCS := $(filter-out $(REGISTRY_SRCS),$(wildcard bench/*.c))
ifneq ($(HAVE_LIBBLOOM),1)
CLI_SRCS := $(filter-out bench/baseline_libbloom.c,$(CLI_SRCS))
else
CLI_CFLAGS := -DFK_HAVE_LIBBLOOM=1
CLI_LIBS   := -lbloom
endif
CLI_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRCS))
CLI      := $(BUILD)/filterkit
# The CLI minus main(), as an archive the tests/test_bench_*.c programs link.
BENCH_LIB := $(BUILD)/libfk_bench.a
BENCH_LIB_OBJS := $(filter-out $(BUILD)/bench/main.o,$(CLI_OBJS))

# Build facts every result file records (compiled into bench/runinfo.c only;
# the stamp changes when they do, so a new commit rebuilds just that file).
FK_GIT_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
                   { git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; } && echo "$$c")
RUNINFO_CFLAGS := $(filter-out -MMD -MP -I.,$(ALL_CFLAGS)) $(CLI_CFLAGS)
RUNINFO_FACTS := $(FK_GIT_COMMIT) | $(CC) | $(RUNINFO_CFLAGS) | $(NATIVE)
RUNINFO_STAMP := $(BUILD)/runinfo.stamp
$(BUILD)/bench/runinfo.o: CLI_CFLAGS += -DFK_BUILD_COMMIT='"$(FK_GIT_COMMIT)"' -DFK_BUILD_CC='"$(CC)"' \
    -DFK_BUILD_CFLAGS='"$(RUNINFO_CFLAGS)"' -DFK_BUILD_NATIVE=$(NATIVE)
$(BUILD)/bench/runinfo.o: $(RUNINFO_STAMP)

# ---------------------------------------------------------------- tests
# tests/test_*.c: one program each, linked with the all-in-one archive.
# tests/link_<module>.c: linked with libfk_<module>.a + libfk_common.a only,
# which proves that module links alone.
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
LINK_SRCS := $(foreach m,$(filter-out common,$(PRESENT)),$(wildcard tests/link_$(m).c))
LINK_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(LINK_SRCS))

.PHONY: all lib cli tests-build test test-fast bench deps deps-bench install clean help

all: deps lib cli $(BUILD)/filterkit.pc

lib: $(ARCHIVES) $(BUILD)/libfilterkit.a $(BUILD)/libfilterkit.so

cli: $(if $(CLI_SRCS),$(CLI))

help:
	@echo "make              build the libraries, the CLI and filterkit.pc into $(BUILD)/"
	@echo "make test         build and run every test, plain and under ASan+UBSan"
	@echo "make test-fast    run the tests once, without the sanitizer build"
	@echo "make bench        run the default benchmark suite, write results/ and plots"
	@echo "make fuzz         run each libFuzzer target (tests/fuzz/) for FUZZ_SECONDS (30) under ASan+UBSan"
	@echo "make install      install headers, libraries and filterkit.pc (PREFIX, DESTDIR)"
	@echo "make deps         install missing Debian packages (as root) or say which"
	@echo "make clean        remove $(BUILD)/"
	@echo "knobs: CC=clang OPT=-O3 NATIVE=1 WERROR=1 SAN=address,undefined BUILD=dir"

# ------------------------------------------------------ Debian packages
# $(call ensure,package,command that succeeds when it is present)
define ensure
	@if ! { $(2); } >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "filterkit: installing missing Debian package $(1)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1)) >/dev/null || \
	      { echo "filterkit: could not install $(1); run: apt-get install $(1)" >&2; exit 1; }; \
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

# ---------------------------------------------------------------- rules
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(if $(filter bench/%,$<),$(CLI_CFLAGS)) -c $< -o $@

# Archives are rebuilt from scratch so a deleted source leaves no stale object.
define archive_rule
$(BUILD)/libfk_$(1).a: $(call mod_objs,$(1))
	@rm -f $$@
	$(AR) rcs $$@ $$^
endef
$(foreach m,$(PRESENT),$(eval $(call archive_rule,$(m))))

$(BUILD)/libfilterkit.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libfilterkit.so: $(LIB_OBJS)
	$(CC) -shared $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(CLI): $(CLI_OBJS) $(BUILD)/libfilterkit.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libfilterkit.a $(CLI_LIBS) $(LDLIBS_ALL)

$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(BUILD)/libfilterkit.a
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libfilterkit.a $(LDLIBS_ALL)

# tests/test_bench_*.c test the CLI's parts, so they also link libfk_bench.a.
$(BUILD)/tests/test_bench_%: $(BUILD)/tests/test_bench_%.o $(BENCH_LIB) $(BUILD)/libfilterkit.a
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BENCH_LIB) $(BUILD)/libfilterkit.a $(CLI_LIBS) $(LDLIBS_ALL)

$(BENCH_LIB): $(BENCH_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(RUNINFO_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(RUNINFO_FACTS)' | cmp -s - $@ || echo '$(RUNINFO_FACTS)' > $@

.PHONY: FORCE
FORCE:

$(BUILD)/tests/link_%: $(BUILD)/tests/link_%.o $(BUILD)/libfk_%.a $(BUILD)/libfk_common.a
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libfk_$*.a $(BUILD)/libfk_common.a $(LDLIBS_ALL)

$(BUILD)/filterkit.pc: Makefile
	@mkdir -p $(BUILD)
	@printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: filterkit' 'Description: approximate membership filters: Bloom, counting Bloom, cuckoo' \
	  'Version: 0.1.0' 'Cflags: -I$${includedir}/filterkit' 'Libs: -L$${libdir} -lfilterkit' \
	  'Libs.private: -lm' > $@

# ---------------------------------------------------------------- tests
tests-build: deps lib cli $(TEST_BINS) $(LINK_BINS)

# `make test`: everything twice, plain and under AddressSanitizer + UBSan;
# the runner ends with one line `N passed, N failed`.
test: deps
	$(MAKE) --no-print-directory tests-build
	$(MAKE) --no-print-directory tests-build BUILD=$(BUILD)/san SAN=address,undefined OPT=-O1
	@tests/run.sh $(BUILD) $(BUILD)/san

test-fast: deps
	$(MAKE) --no-print-directory tests-build
	@tests/run.sh $(BUILD)

# ---------------------------------------------------------------- fuzz
# `make fuzz`: builds tests/fuzz/fuzz_*.c with clang's libFuzzer under
# ASan + UBSan and runs each for FUZZ_SECONDS (-j3 runs all three at once).
# Seeds come from tests/fuzz/corpus/<name>/ (read only); new inputs, logs
# and crash files go to $(BUILD)/fuzz/.
FUZZ_SECONDS  ?= 30
FUZZ_CC       ?= clang
FUZZ_BUILD    := $(BUILD)/fuzz
FUZZ_NAMES    := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB_SRCS := $(foreach m,$(PRESENT),$(call mod_srcs,$(m))) $(REGISTRY_SRCS)
FUZZ_CFLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Wall -Wextra -Werror -g -O1 \
                 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

.PHONY: fuzz fuzz-build deps-fuzz
fuzz: deps-fuzz
	$(MAKE) --no-print-directory $(addprefix fuzz-run-,$(FUZZ_NAMES))
	@echo "fuzz: $(FUZZ_NAMES): $(FUZZ_SECONDS)s each, no failure"

fuzz-build: deps-fuzz $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_NAMES))

deps-fuzz:
	$(call ensure,clang,command -v $(FUZZ_CC))
	$(call ensure,libclang-rt-14-dev,printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' | \
	  $(FUZZ_CC) -x c - -fsanitize=fuzzer -o /dev/null)

# The CLI's argument parser lives in bench/, outside the library.
FUZZ_CLI_SRCS := bench/args.c bench/operands.c
$(FUZZ_BUILD)/fuzz_cli_args: FUZZ_EXTRA_SRCS := $(FUZZ_CLI_SRCS)
$(FUZZ_BUILD)/fuzz_cli_args: $(FUZZ_CLI_SRCS) $(wildcard bench/*.h)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_SRCS) $(wildcard common/*.h $(addsuffix /*.h,$(PRESENT)))
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(FUZZ_EXTRA_SRCS) -lm

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

# --------------------------------------------------------------- bench
bench: deps-bench
	$(MAKE) --no-print-directory all
	@bench/run_default.sh $(BUILD)

# ------------------------------------------------------------- install
# Public: common/ minus its internal helpers, and each module's <module>.h
# (plus <module>_serial.h, its save/load API).
COMMON_INTERNAL := common/hash.h common/bits.h common/probe.h common/alloc.h common/endian.h
PUBLIC_HEADERS  := $(filter-out $(COMMON_INTERNAL),$(wildcard common/*.h)) \
                   $(foreach m,$(filter-out common,$(PRESENT)),$(wildcard $(m)/$(m).h $(m)/$(m)_serial.h))
install: all
	@for h in $(PUBLIC_HEADERS); do \
	  install -D -m 644 $$h $(DESTDIR)$(PREFIX)/include/filterkit/$$h || exit 1; done
	install -D -m 644 $(BUILD)/libfilterkit.a $(DESTDIR)$(PREFIX)/lib/libfilterkit.a
	install -D -m 755 $(BUILD)/libfilterkit.so $(DESTDIR)$(PREFIX)/lib/libfilterkit.so
	@for a in $(ARCHIVES); do install -D -m 644 $$a $(DESTDIR)$(PREFIX)/lib/$$(basename $$a) || exit 1; done
	install -D -m 644 $(BUILD)/filterkit.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/filterkit.pc
	$(if $(CLI_SRCS),install -D -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/filterkit)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ============================================================ redis module
# (issue 18) `make redis` builds $(BUILD)/filterkit-redis.so, a Redis 7.0
# module over the all-in-one library (redis/; no Redis header needed).
# `make test` builds it too when redis-server is installed, and
# tests/cli_redis.sh runs it on real servers; `make deps-redis` installs
# redis-server and redis-tools.
REDIS_MODULE := $(BUILD)/filterkit-redis.so
REDIS_OBJS   := $(patsubst %.c,$(BUILD)/%.o,$(wildcard redis/*.c))
HAVE_REDIS   := $(shell command -v redis-server >/dev/null 2>&1 && echo 1)
.PHONY: redis deps-redis
redis: deps $(REDIS_MODULE)
$(REDIS_MODULE): $(REDIS_OBJS) $(BUILD)/libfilterkit.a
	$(CC) -shared $(ALL_LDFLAGS) -Wl,--exclude-libs,ALL -o $@ $(REDIS_OBJS) $(BUILD)/libfilterkit.a $(LDLIBS_ALL)
deps-redis:
	$(call ensure,redis-server,command -v redis-server)
	$(call ensure,redis-tools,command -v redis-cli)
ifeq ($(HAVE_REDIS),1)
tests-build: $(REDIS_MODULE)
endif
# The module's value decoder, fuzzed like the library's loader (make fuzz).
$(FUZZ_BUILD)/fuzz_redis_value: FUZZ_EXTRA_SRCS := redis/value.c
$(FUZZ_BUILD)/fuzz_redis_value: redis/value.c redis/value.h
# ======================================================== end redis module
