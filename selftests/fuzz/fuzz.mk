# selftests/fuzz: libFuzzer targets for the parsers that see untrusted bytes
# and for the freshness rules (selftests/fuzz/README.md). Included by the top
# Makefile.
#
#   make fuzz-build   build/fuzz/fuzz_* (clang, -fsanitize=fuzzer,address,undefined)
#   make test-fuzz    each target for 20 s over its corpus (TAP): the bounded
#                     run for the test suite
#   make fuzz         the long run: FUZZ_SECONDS per target (default 3600),
#                     one target after the other; FUZZ_TARGETS picks some
#   make fuzz-seeds   rewrite the seed corpus from selftests/fuzz/make-seeds.c
#
# Without clang's libFuzzer runtime (Debian: libclang-rt-14-dev, in make
# deps) fuzz-build builds nothing and says why, and the run reports each
# target as skipped, never as passed.
FUZZ_SECONDS ?= 3600
FUZZ_TEST_SECONDS ?= 20
FUZZ_NAMES := fuzz_wire fuzz_fresh fuzz_config fuzz_sim
FUZZ_BINS := $(patsubst %,$(B)/fuzz/%,$(FUZZ_NAMES))
# -O1 -g: what libFuzzer's docs advise, fast enough and readable stacks. UBSan
# must abort, or libFuzzer never sees a report as a crash.
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer $(WARN) -std=gnu11 \
	-I$(CURDIR)/include/uapi -I$(CURDIR)/kmod -I$(CURDIR)/userspace \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# clang prints the name back unchanged when it has no such file. Deferred
# (=, used in a recipe only), so that other targets do not pay for the look-up.
FUZZ_RT = $(shell $(CLANG) -print-file-name=libclang_rt.fuzzer-$(shell uname -m).a 2>/dev/null)
FUZZ_HAVE_RT = $(if $(filter /%,$(FUZZ_RT)),$(wildcard $(FUZZ_RT)))

# Each target links only the code it tests, so that libFuzzer's coverage
# counts that code alone.
FUZZ_SRC_fuzz_wire := kmod/proto/wire.c kmod/proto/siphash.c
FUZZ_SRC_fuzz_fresh := kmod/proto/fresh.c kmod/proto/replay.c
FUZZ_SRC_fuzz_config := userspace/ftctl/config.c userspace/common/duration.c \
	userspace/common/addr.c
# The whole protocol core, run by the simulator (all of it but its main).
FUZZ_SRC_fuzz_sim := $(SIM_UNIT_SRC) $(PROTO_SRC)
FUZZ_LIBS_fuzz_sim := -lm

.PHONY: fuzz-build fuzz-bins test-fuzz fuzz fuzz-seeds fuzz-seeds-check

FUZZ_NO_RT_MSG = fuzz-build: clang's libFuzzer runtime not found ($(CLANG) -print-file-name: \
	$(FUZZ_RT)); install libclang-rt-14-dev (make deps); nothing built

fuzz-build:
	@$(if $(FUZZ_HAVE_RT),$(MAKE) --no-print-directory fuzz-bins,echo "$(FUZZ_NO_RT_MSG)")

# The binaries themselves (no runtime check): what fuzz-build makes.
fuzz-bins: $(FUZZ_BINS)
	@:

define fuzz_rule
$(B)/fuzz/$(1): selftests/fuzz/$(1).c $(FUZZ_SRC_$(1)) kmod/proto/*.h userspace/ftctl/config.h \
		userspace/common/*.h userspace/sim/*.h include/uapi/linux/ftdetect.h
	@mkdir -p $$(@D)
	$(CLANG) $$(FUZZ_CFLAGS) -o $$@ $$< $(FUZZ_SRC_$(1)) $(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_NAMES),$(eval $(call fuzz_rule,$(t))))

# The run looks for the runtime of the same clang, to tell SKIP from failure.
test-fuzz: fuzz-build fuzz-seeds-check
	CLANG=$(CLANG) selftests/fuzz/run $(FUZZ_TEST_SECONDS)

fuzz: fuzz-build
	CLANG=$(CLANG) selftests/fuzz/run $(FUZZ_SECONDS)

# The seeds are files in the tree; this only rewrites them (after a format
# change), with the host compiler.
fuzz-seeds: $(B)/fuzz/make-seeds
	$(B)/fuzz/make-seeds selftests/fuzz/corpus

# Seeds of an older format (a wire version ago) would only exercise the
# decoder's first refusal: the suite fails while the tree's differ from
# what make-seeds writes now. Regression inputs (crash-*) are not seeds.
fuzz-seeds-check: $(B)/fuzz/make-seeds
	@rm -rf $(B)/fuzz/seeds-now
	@$(B)/fuzz/make-seeds $(B)/fuzz/seeds-now
	@diff -rq -x 'crash-*' $(B)/fuzz/seeds-now selftests/fuzz/corpus || { \
		echo "test-fuzz: selftests/fuzz/corpus differs from what make-seeds writes now: run make fuzz-seeds" >&2; \
		exit 1; }

$(B)/fuzz/make-seeds: selftests/fuzz/make-seeds.c kmod/proto/wire.c kmod/proto/siphash.c kmod/proto/*.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $< kmod/proto/wire.c kmod/proto/siphash.c
