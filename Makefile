# ftdetect: one top-level make for the module, the eBPF programs, the
# user-space library and tools, and the tests.
#
#   make            module + user space
#   make deps       install the Debian packages everything needs (root)
#   make test       every test: host unit tests, DKMS, then the VM suite
#   make test-debug the VM suite on a debug kernel (KASAN, lockdep, kmemleak,
#                   fault injection) built from Debian's linux-source-6.1 and
#                   cached in /var/cache/ftdetect-debug-kernel; not part of
#                   make test (the first build takes about an hour on 2 cores;
#                   docs/testing.md)
#   make test-up    the VM suite on a guest with one vCPU; not part of make
#                   test, which runs a few tests so (docs/testing.md)
#   make test-kernels  the VM suite on every other installed kernel (make deps
#                   installs the 6.12 series); make test only builds for it
#   make test-systemd  the systemd unit's test, in a guest with systemd as
#                   PID 1 (part of make test)
#   make demo       boot the VM, run a small cluster, kill a node, show detection
#   make bench      benchmarks (bench/, docs/benchmarks.md); not part of make test
#   make install    install tools, library, headers, the systemd unit (DESTDIR,
#                   PREFIX, SYSTEMDUNITDIR); make uninstall
#   make dkms-install  the module for the running kernel (KERNELRELEASE=R: another)
#   make deb        Debian packages (debian/) in build/deb/
#   make test-deb   make deb, then lintian and the packages' contents (a stage
#                   of make test; docs/testing.md)
#   make test-deb-vm  make deb, then the packages installed, run and purged
#                   in a guest with systemd (slow; not part of make test)
#
# KERNELRELEASE and KDIR select the kernel to build against; the default is the
# newest kernel that has both headers and an image installed (the VM boots it).

KERNELRELEASE ?= $(shell $(CURDIR)/selftests/vm/kernel-release)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
PREFIX ?= /usr/local
B := $(CURDIR)/build

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes
NL_CFLAGS = $(shell pkg-config --cflags libnl-genl-3.0)
NL_LIBS = $(shell pkg-config --libs libnl-genl-3.0)
# ftctl checks the RDMA devices a config names (userspace/ftctl/rdma.c).
IBV_LIBS = $(shell pkg-config --libs libibverbs)
# ftstat --journal (userspace/ftstat/journal.c)
SD_LIBS = $(shell pkg-config --libs libsystemd)
# CPPFLAGS and LDFLAGS from the environment, as make's conventions have it:
# dpkg-buildpackage sets them for the packages (make deb: _FORTIFY_SOURCE,
# relro, bindnow). LDFLAGS goes to the links of what `make install` installs.
UCFLAGS = $(CFLAGS) $(CPPFLAGS) $(WARN) -std=gnu11 -I$(CURDIR)/include/uapi -I$(CURDIR)/kmod -I$(CURDIR)/userspace

.PHONY: all module userspace selftests tools lib unit test test-unit test-dkms test-deb test-deb-vm test-vm test-up test-kernels test-systemd test-debug demo deps clean install uninstall dkms-install dkms-remove

all: module ebpf userspace selftests mpi

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod modules

# ---------------------------------------------------------------- eBPF
# The XDP ingress and TC egress programs (ebpf/*.bpf.c) and their libbpf
# skeletons, which ftctl embeds. The programs touch only uapi structures
# (struct xdp_md, struct __sk_buff, packet headers), so they build against
# the uapi headers, including the contract <linux/ftdetect.h>, rather than a
# vmlinux.h: no CO-RE relocation, no kernel BTF needed (docs/ebpf.md).
# ebpf/loader.c and ebpf/status.c are their user-space side (libbpf).
CLANG ?= clang
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip
EBPF_PROGS := ftd_xdp ftd_tc
EBPF_OBJS := $(patsubst %,$(B)/ebpf/%.bpf.o,$(EBPF_PROGS))
EBPF_SKELS := $(patsubst %,$(B)/ebpf/%.skel.h,$(EBPF_PROGS))
EBPF_USER_SRC := ebpf/loader.c ebpf/status.c
# Debian keeps <asm/types.h> in the multiarch directory, which -target bpf
# does not search. The BTF line info, which the skeleton embeds in ftctl,
# names the source files: relative to the tree, not where it was built.
BPF_CFLAGS := -g -O2 -target bpf -Wall -Wextra -Wno-unused-parameter \
	-I$(CURDIR)/include/uapi -I$(CURDIR)/ebpf \
	-idirafter /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null) \
	-fdebug-prefix-map=$(CURDIR)=.
EBPF_CFLAGS = -I$(B)/ebpf -I$(CURDIR)/ebpf $(shell pkg-config --cflags libbpf)
EBPF_LIBS = $(shell pkg-config --libs libbpf)

.PHONY: ebpf
ebpf: $(EBPF_OBJS) $(EBPF_SKELS)

$(B)/ebpf/%.bpf.o: ebpf/%.bpf.c ebpf/ftd_ebpf.h ebpf/ftd_parse.h include/uapi/linux/ftdetect.h
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
# DWARF goes, BTF (which the maps need) stays.
	$(LLVM_STRIP) -g $@.tmp
	mv $@.tmp $@

$(B)/ebpf/%.skel.h: $(B)/ebpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp
	mv $@.tmp $@
# ---------------------------------------------------------------- end of eBPF

# ---------------------------------------------------------------- user space
PROTO_SRC := $(wildcard kmod/proto/*.c)
COMMON_SRC := userspace/common/nl.c userspace/common/names.c userspace/common/duration.c \
	userspace/common/addr.c userspace/common/json.c userspace/common/msg.c \
	userspace/common/query.c userspace/common/table.c \
	userspace/common/print.c
# A key id is defined once, in the protocol core: the tools link that part.
KEYID_SRC := userspace/common/keyid.c kmod/proto/keyring.c kmod/proto/siphash.c kmod/proto/wire.c
# The tools' files other than main.c (config parser, formatters): unit-tested.
TOOL_UNIT_SRC = $(filter-out %/main.c,$(wildcard userspace/ftctl/*.c userspace/ftstat/*.c))
LIB_SRC := userspace/lib/ftdetect.c userspace/lib/status.c

userspace: tools lib
tools: $(B)/bin/ftctl $(B)/bin/ftstat
lib: $(B)/lib/libftdetect.so $(B)/lib/libftdetect.so.1 $(B)/lib/libftdetect.a $(B)/lib/libftdetect.pc

# The tools and the simulator are linked from objects in $(B)/obj, one per
# source, each with the headers it included (-MMD -MP, $(B)/obj/**/*.d): a
# header change rebuilds what includes it. The loader includes the
# generated skeletons, which a first build has no .d to name: they come
# first.
DEPFLAGS = -MMD -MP
# The same for a program compiled and linked in one step: its .d beside it.
LINK_DEPFLAGS = $(DEPFLAGS) -MF $@.d -MT $@
OBJ_CFLAGS = $(UCFLAGS) $(NL_CFLAGS) $(EBPF_CFLAGS) $(DEPFLAGS)
obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(OBJ_CFLAGS) -c -o $@ $<
$(call obj,ebpf/loader.c) $(B)/unit/obj/ebpf/loader.o: | $(EBPF_SKELS)

# What the tools share, the selftests' programs link too.
TOOL_LIB_OBJ := $(call obj,$(COMMON_SRC) $(KEYID_SRC))
FTCTL_OBJ := $(call obj,$(wildcard userspace/ftctl/*.c) $(EBPF_USER_SRC)) $(TOOL_LIB_OBJ)
FTSTAT_OBJ := $(call obj,$(wildcard userspace/ftstat/*.c) ebpf/status.c) $(TOOL_LIB_OBJ)

$(B)/bin/ftctl: $(FTCTL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(LDFLAGS) -o $@ $^ $(NL_LIBS) $(EBPF_LIBS) $(IBV_LIBS)

$(B)/bin/ftstat: $(FTSTAT_OBJ)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(LDFLAGS) -o $@ $^ $(NL_LIBS) $(EBPF_LIBS) $(SD_LIBS)

# So that `make build/bin/ftctl` (a relative name for the same file) works.
build/bin/ftctl build/bin/ftstat: build/bin/%: $(B)/bin/% ;

# ---------------------------------------------------------------- libftdetect
# Shared (soname libftdetect.so.1; the version script exports the ftd_* API
# and nothing else) and static; a pkg-config file for PREFIX/LIBDIR; the
# header <ftdetect/ftdetect.h> includes the installed <linux/ftdetect.h>.
LIB_VERSION := 1.0.0
LIB_SONAME := libftdetect.so.1
LIB_REAL := libftdetect.so.$(LIB_VERSION)
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
# Each function of libftdetect(3) gets a man page name.
LIB_MAN_LINKS := ftd_open ftd_close ftd_fd ftd_register ftd_deregister ftd_info \
	ftd_next_event ftd_event_name ftd_strerror ftd_status_map ftd_status_changes \
	ftd_status_info ftd_node_status ftd_rank_status ftd_status_snapshot \
	ftd_status_snapshot_free ftd_node_state_name ftd_rank_state_name

# One set of position-independent objects for both.
LIB_OBJ := $(patsubst %.c,$(B)/obj/pic/%.o,$(LIB_SRC))
$(B)/obj/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(B)/lib/$(LIB_REAL): $(LIB_OBJ) userspace/lib/libftdetect.map
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(LDFLAGS) -fPIC -shared -Wl,-soname,$(LIB_SONAME) \
		-Wl,--version-script=userspace/lib/libftdetect.map -o $@ $(LIB_OBJ)

$(B)/lib/$(LIB_SONAME) $(B)/lib/libftdetect.so: $(B)/lib/$(LIB_REAL)
	ln -sf $(LIB_REAL) $@

$(B)/lib/libftdetect.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# Regenerated whenever PREFIX or LIBDIR change, rewritten only if it differs.
.PHONY: FORCE
FORCE:
$(B)/lib/libftdetect.pc: userspace/lib/libftdetect.pc.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(LIB_VERSION)|' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; echo "  GEN $@ (prefix $(PREFIX))"; fi

.PHONY: install-lib
install-lib: lib
	install -D -m 0644 include/uapi/linux/ftdetect.h $(DESTDIR)$(INCLUDEDIR)/linux/ftdetect.h
	install -D -m 0644 userspace/lib/ftdetect.h $(DESTDIR)$(INCLUDEDIR)/ftdetect/ftdetect.h
	install -D -m 0755 $(B)/lib/$(LIB_REAL) $(DESTDIR)$(LIBDIR)/$(LIB_REAL)
	ln -sf $(LIB_REAL) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libftdetect.so
	install -D -m 0644 $(B)/lib/libftdetect.a $(DESTDIR)$(LIBDIR)/libftdetect.a
	install -D -m 0644 $(B)/lib/libftdetect.pc $(DESTDIR)$(LIBDIR)/pkgconfig/libftdetect.pc
	install -D -m 0644 docs/man/libftdetect.3 $(DESTDIR)$(PREFIX)/share/man/man3/libftdetect.3
	for f in $(LIB_MAN_LINKS); do \
		echo '.so man3/libftdetect.3' > $(DESTDIR)$(PREFIX)/share/man/man3/$$f.3; done
# ---------------------------------------------------------------- end of libftdetect

# ---------------------------------------------------------------- MPI glue
# libftdetect_mpi, its example and tests (userspace/mpi/mpi.mk): built when
# an MPI and PMIx are found; `make mpi` says what it built and why not.
# The DKMS copy of this Makefile (make dkms-install) has only the module
# sources, hence "-include" for this fragment and the MPI tests' one.
.PHONY: mpi
-include userspace/mpi/mpi.mk

# ---------------------------------------------------------------- simulator
# ftdsim (userspace/sim/, docs/simulation.md): the protocol at 1k..100k
# nodes, compiled from the very protocol core the module builds
# ($(PROTO_SRC)). `make bench-sim` runs the standard set and writes
# build/bench/sim.json; it exits non-zero if a run breaks a rule.
SIM_SRC := $(wildcard userspace/sim/*.c)
# All but main.c: linked into the unit tests (test_sim drives sim_run()).
SIM_UNIT_SRC := $(filter-out %/main.c,$(SIM_SRC))
SIM_BENCH_ARGS := --nodes 1000,10000,100000 --scenario single,adjacent,partition \
	--period 10ms --timeout 50ms --observers 2 --latency 20us --jitter 5us --loss 0,1%

# `make bench-sim-rack` (not in `make bench`: ~5 minutes, 6 GB): a rack of
# 1,000 at 100,000 nodes, at 10 ms / 50 ms with 0 and 1 % loss and at
# 10 ms / 100 ms; build/bench/sim-rack.json and sim-rack-t100.json.
SIM_RACK_ARGS := --nodes 100000 --scenario partition --cut 1000 --period 10ms --observers 2 \
	--latency 20us --jitter 5us

# `make bench-sim-split` (not in `make bench`: about 40 s): partitions,
# with the module's self-fencing (docs/simulation.md "Partitions"), at
# 1,000 nodes: an even split of islands, an island of a third, a third and
# one node cut off from everyone, 60 % cut off at random (no side goes on)
# and 49 % at random at 20 % loss, seeds 1-3; build/bench/sim-split-*.json.
# Not at 10,000: an even split there takes hours of simulation (its silent
# half is longer than the walk's cap, simulation.md).
SIM_SPLIT_ARGS := --scenario partition --period 10ms --timeout 50ms --observers 2 \
	--latency 20us --jitter 5us

.PHONY: sim bench-sim bench-sim-rack bench-sim-split bench-sim-scenarios bench-sim-loss
sim: $(B)/bin/ftdsim

$(B)/bin/ftdsim: $(call obj,$(SIM_SRC) $(PROTO_SRC) userspace/common/duration.c)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $^ -lm

bench-sim: $(B)/bin/ftdsim
	@mkdir -p $(B)/bench
	$(B)/bin/ftdsim $(SIM_BENCH_ARGS) --output $(B)/bench/sim.json

bench-sim-rack: $(B)/bin/ftdsim
	@mkdir -p $(B)/bench
	$(B)/bin/ftdsim $(SIM_RACK_ARGS) --timeout 50ms --loss 0,1% --output $(B)/bench/sim-rack.json
	$(B)/bin/ftdsim $(SIM_RACK_ARGS) --timeout 100ms --output $(B)/bench/sim-rack-t100.json
bench-sim-split: $(B)/bin/ftdsim
	@mkdir -p $(B)/bench
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 50% --cut-mode island --first 1 \
		--output $(B)/bench/sim-split-half.json
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 33.3% --cut-mode island \
		--output $(B)/bench/sim-split-third-island.json
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 33.3% \
		--output $(B)/bench/sim-split-third-isolated.json
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 1 --output $(B)/bench/sim-split-one.json
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 60% --cut-layout random \
		--output $(B)/bench/sim-split-none-goes-on.json
	$(B)/bin/ftdsim $(SIM_SPLIT_ARGS) -n 1000 --cut 49% --cut-layout random --loss 20% \
		--seed 1,2,3 --output $(B)/bench/sim-split-lossy.json
# Every completeness/accuracy scenario of the simulator in one table (~2
# min, 4 GB; bench/sim-scenarios.sh): build/bench/sim-scenarios.json.
bench-sim-scenarios: $(B)/bin/ftdsim
	bench/sim-scenarios.sh
# False deaths from frame loss alone, counted at high loss and carried to
# 2 % at 100,000 nodes by a fitted power law (~20 min on 2 cores;
# bench/sim-loss.sh): build/bench/sim-loss.json.
bench-sim-loss: $(B)/bin/ftdsim
	bench/sim-loss.sh
# ---------------------------------------------------------------- end of simulator

# ---------------------------------------------------------------- benchmarks
# bench/ (docs/benchmarks.md): numbers, not tests, and not part of `make
# test`. Each writes build/bench/NAME.json and prints a table; the in-VM ones
# run in one boot (bench/vm/run-all), on one vCPU unless FTD_VM_CPUS says
# otherwise: docs/benchmarks.md's numbers were measured there. `make
# bench-NAME` runs one.
BENCH_VM := detect procdead suspect cost memory coldstart
bench-vm $(patsubst %,bench-%,$(BENCH_VM)) bench-lossy bench-suspect-runs bench-ulfm: export FTD_VM_CPUS ?= 1
BENCH_BINS := $(patsubst bench/tools/%.c,$(B)/bench/bin/%,$(wildcard bench/tools/*.c))

.PHONY: bench bench-vm bench-tools $(patsubst %,bench-%,$(BENCH_VM))
$(B)/bench/bin/%: bench/tools/%.c $(B)/lib/libftdetect.a
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(B)/lib/libftdetect.a -lpthread

bench-tools: $(BENCH_BINS)
bench: bench-sim bench-vm
bench-vm: all $(BENCH_BINS)
	selftests/vm/run bench/vm/run-all $(BENCH_VM)
$(patsubst %,bench-%,$(BENCH_VM)): bench-%: all $(BENCH_BINS)
	selftests/vm/run bench/vm/run-all $*
# Long runs, not in `make bench`: ten runs at 1 ms / 10 ms on fresh
# clusters, false deaths under load (~15 min); ten minutes of 5 % loss and
# 2 ms +- 1 ms jitter at 10 ms / 50 ms (~12 min).
.PHONY: bench-suspect-runs bench-lossy
bench-lossy: all $(BENCH_BINS)
	selftests/vm/run bench/vm/run-all lossy
bench-suspect-runs: all $(BENCH_BINS)
	BENCH_RUNS=$${BENCH_RUNS:-10} BENCH_SETTINGS=$${BENCH_SETTINGS:-1000:10000} \
		selftests/vm/run bench/vm/run-all suspect
# Time to the ULFM error in the survivors' MPI call, Open MPI alone against
# Open MPI with ftdetect (bench/ulfm.sh; needs an MPI with working ULFM that
# make mpi found, ftdetect_mpi(3); ~30 min). ftb-ulfm is built per MPI,
# against that MPI's libftdetect_mpi.
.PHONY: bench-ulfm
BENCH_MPI_BINS := $(patsubst %,$(B)/bench/mpi/ftb-ulfm.%,$(MPI_FOUND))
define bench_mpi_rule
$(B)/bench/mpi/ftb-ulfm.$(1): bench/mpi/ftb-ulfm.c $(MPI_B)/$(1)/libftdetect_mpi_$(1).so $(MPI_B)/$(1)/ftd_mpi_config.h
	@mkdir -p $$(@D)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(WARN) -std=gnu11 -Wno-missing-prototypes \
		-include $(MPI_B)/$(1)/ftd_mpi_config.h -I$(MPI_B)/include -o $$@ $$< \
		-L$(MPI_B)/$(1) -l:libftdetect_mpi_$(1).so -Wl,-rpath,$(MPI_B)/$(1)
endef
$(foreach f,$(MPI_FOUND),$(eval $(call bench_mpi_rule,$(f))))
bench-ulfm: all $(BENCH_MPI_BINS)
	selftests/vm/run bench/vm/run-all ulfm
# ---------------------------------------------------------------- end of benchmarks

# ---------------------------------------------------------------- tests
# In-VM selftests (C, kselftest harness) and the tools the shell tests use.
SELFTEST_BINS := $(patsubst selftests/ftdetect/%.c,$(B)/selftests/%,$(wildcard selftests/ftdetect/*.c)) \
	$(B)/selftests/ftd-devwatch $(B)/selftests/ftd-inject $(B)/selftests/ftd-link \
	$(B)/selftests/ftd-capture $(B)/selftests/ftd-status $(B)/selftests/ftd-failnth \
	$(B)/selftests/ftd-replay $(B)/selftests/ftd-hold $(B)/selftests/ftd-nlfuzz \
	$(B)/selftests/ftd-udphub
STCFLAGS = $(UCFLAGS) -I$(CURDIR)/selftests $(NL_CFLAGS)

$(B)/selftests/%: selftests/ftdetect/%.c $(TOOL_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -Wno-missing-prototypes -o $@ $< $(TOOL_LIB_OBJ) $(NL_LIBS) -lpthread

# status_test also reads the table through libftdetect, as an MPI runtime would.
$(B)/selftests/status_test: selftests/ftdetect/status_test.c $(call obj,$(COMMON_SRC)) $(B)/lib/libftdetect.a
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -Wno-missing-prototypes -o $@ $< $(call obj,$(COMMON_SRC)) \
		$(B)/lib/libftdetect.a $(NL_LIBS) -lpthread

$(B)/selftests/ftd-devwatch: selftests/tools/ftd-devwatch.c $(B)/lib/libftdetect.a
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(B)/lib/libftdetect.a

# Through the shared library (its exported ABI), found next to the tree's build.
$(B)/selftests/ftd-status: selftests/tools/ftd-status.c $(B)/lib/libftdetect.so $(B)/lib/libftdetect.so.1
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $< -L$(B)/lib -lftdetect -Wl,-rpath,'$$ORIGIN/../lib'

$(B)/selftests/ftd-inject: selftests/tools/ftd-inject.c $(call obj,$(PROTO_SRC))
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(call obj,$(PROTO_SRC))

$(B)/selftests/ftd-link: selftests/tools/ftd-link.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $<

# Runs on the host: the hub between the guests of selftests/vm/guests.
$(B)/selftests/ftd-udphub: selftests/tools/ftd-udphub.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $<

$(B)/selftests/ftd-capture: selftests/tools/ftd-capture.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $<

$(B)/selftests/ftd-replay: selftests/tools/ftd-replay.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $<

# The kernel interfaces' fuzzer (net/nl_fuzz.sh); libnl only resolves the family.
$(B)/selftests/ftd-nlfuzz: selftests/tools/ftd-nlfuzz.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(NL_LIBS) -lpthread

$(B)/selftests/ftd-hold: selftests/tools/ftd-hold.c
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $<

# Fault injection into the module's requests (make test-debug).
$(B)/selftests/ftd-failnth: selftests/tools/ftd-failnth.c $(call obj,$(COMMON_SRC))
	@mkdir -p $(@D)
	$(CC) $(STCFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(call obj,$(COMMON_SRC)) $(NL_LIBS)

selftests: $(SELFTEST_BINS)
-include selftests/mpi/selftests-mpi.mk
-include selftests/fuzz/fuzz.mk

# Host-side unit tests of the protocol core, the tools' parsers and the
# simulator (TAP).
UNIT_TESTS := $(patsubst selftests/unit/%.c,$(B)/unit/%,$(wildcard selftests/unit/*.c))
UNIT_CFLAGS = $(UCFLAGS) $(NL_CFLAGS) $(EBPF_CFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests
# What the tests test, compiled once (with their sanitizers) into an archive
# each test links: compiling it into each of them made the unit build the
# longest step before the suite.
UNIT_LIB_SRC := $(sort $(PROTO_SRC) $(COMMON_SRC) userspace/common/keyid.c $(TOOL_UNIT_SRC) \
	$(SIM_UNIT_SRC) $(EBPF_USER_SRC))
UNIT_LIB_OBJ := $(patsubst %.c,$(B)/unit/obj/%.o,$(UNIT_LIB_SRC))

$(B)/unit/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/unit/libunit.a: $(UNIT_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/unit/%: selftests/unit/%.c $(B)/unit/libunit.a
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) $(LINK_DEPFLAGS) -o $@ $< $(B)/unit/libunit.a $(NL_LIBS) $(EBPF_LIBS) $(SD_LIBS) $(IBV_LIBS) -lm

# test_status reads the table with libftdetect's private reader, compiled in.
$(B)/unit/test_status: userspace/lib/status.c

unit: $(UNIT_TESTS)

# And ftdsim's command line (selftests/sim/cli.sh).
test-unit: unit $(B)/bin/ftdsim
	selftests/run-unit $(UNIT_TESTS) selftests/sim/cli.sh

test-dkms: deps
	selftests/dkms/test-dkms

# The Debian packages (make deb), checked without installing them: lintian,
# each package's files, the module built from ftdetect-dkms's sources, a
# program built against the -dev packages. Also a stage of make test.
# selftests/deb/test-deb-install (root, by hand) installs and purges them.
test-deb: deps
	selftests/deb/test-deb

# The packages installed, run and purged as on a node, in a guest booted
# with systemd as PID 1 (selftests/deb/deb_install_vm.sh): DKMS compiles the
# module inside the emulated guest, which takes many minutes; not part of
# make test (9 minutes measured; the test may take 40, FTD_TEST_LIMIT). Two
# vCPUs unless FTD_VM_CPUS says otherwise.
test-deb-vm: all deb
	FTD_VM_INIT=systemd FTD_VM_LOAD=0 FTD_VM_CPUS=$${FTD_VM_CPUS:-2} FTD_TEST_LIMIT=2400 FTD_VM_TIMEOUT=2700 \
		FTD_VM_EXTRA_TESTS=vm/systemd-tests.list \
		selftests/vm/run selftests/run-vm-suite deb_install

# The VM suite, in one guest (two vCPUs) per four cores at once (selftests/vm/run-shares;
# FTD_VM_SHARES=N to choose).
test-vm: all
	selftests/vm/run-shares

# The VM suite on a guest with one vCPU (docs/testing.md): a node's timer
# and receive path take turns there, and each waits behind the other.
test-up: all
	FTD_VM_CPUS=1 selftests/vm/run

# The VM suite on each installed kernel but the default one (the 6.12 series
# make deps installs): the module built for it in build/kernels/RELEASE/.
# Log: build/test-kernels.log. TESTS=... runs only those of the suite.
test-kernels: deps
	$(MAKE) all
	selftests/vm/other-kernels/test $(TESTS)
# The tests of selftests/vm/systemd-tests.list (the systemd unit) in a guest
# with systemd as PID 1; the unit loads the module, not the harness.
test-systemd: all
	FTD_VM_INIT=systemd FTD_VM_LOAD=0 FTD_VM_EXTRA_TESTS=vm/systemd-tests.list \
		selftests/vm/run selftests/run-vm-suite systemd_unit

# The VM suite on the debug kernel (selftests/vm/debug-kernel/): builds the
# kernel when its config fragment or Debian's source package changed, then
# ftdetect.ko for it (in build/debug-kernel/, not the tree's), then boots it.
# Log: build/test-debug.log. TESTS=... runs only those of the suite.
test-debug: deps
	$(MAKE) all
	selftests/vm/debug-kernel/test $(TESTS)

# The README's test command: installs what it needs, then runs everything.
test: deps
	$(MAKE) -j$$(nproc) all unit
	selftests/run-all

demo: deps
	$(MAKE) -j$$(nproc) all
	selftests/vm/run selftests/demo/demo.sh

deps:
	@selftests/deps/install

# Where bash-completion looks for a command's completion, loaded on first use.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SBINDIR ?= $(PREFIX)/sbin
# The systemd unit (systemd/): for PREFIX=/usr where systemd says system
# units go; else under PREFIX, which systemd searches for /usr/local (for
# another PREFIX, set SYSTEMDUNITDIR). The configuration is always in
# /etc/ftdetect, which the unit and the docs name.
SYSTEMDUNITDIR ?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system),$(PREFIX)/lib/systemd/system)
CONFDIR := /etc/ftdetect

# The unit runs ftctl where install puts it: regenerated when SBINDIR changes.
$(B)/systemd/ftdetect.service: systemd/ftdetect.service.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@SBINDIR@|$(SBINDIR)|g' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; echo "  GEN $@ (ftctl in $(SBINDIR))"; fi

# systemctl only for a real install on a system that runs systemd: a DESTDIR
# is a package's staging tree, and a container or chroot has no manager.
SYSTEMD_RUNNING = $(if $(DESTDIR),,$(wildcard /run/systemd/system))

# ldconfig only for a real install: a DESTDIR is a package's staging tree.
# install-tools and install-systemd are parts of it an admin (or a test)
# may want alone, like install-lib.
install: install-tools install-lib install-systemd
	$(if $(DESTDIR),,ldconfig)

.PHONY: install-tools install-systemd
install-tools: tools
	install -D -m 0755 $(B)/bin/ftctl $(DESTDIR)$(SBINDIR)/ftctl
	install -D -m 0755 $(B)/bin/ftstat $(DESTDIR)$(PREFIX)/bin/ftstat
	install -D -m 0644 docs/man/ftctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/ftctl.8
	install -D -m 0644 docs/man/ftstat.8 $(DESTDIR)$(PREFIX)/share/man/man8/ftstat.8
	install -D -m 0644 docs/man/ftdetect.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/ftdetect.conf.5
	install -D -m 0644 completion/ftctl.bash $(DESTDIR)$(BASHCOMPDIR)/ftctl
	install -D -m 0644 completion/ftstat.bash $(DESTDIR)$(BASHCOMPDIR)/ftstat

# /etc/ftdetect is made, never filled: with no cluster.conf the unit starts
# nothing, and an example file there would be applied at the next boot.
install-systemd: $(B)/systemd/ftdetect.service
	install -D -m 0644 $(B)/systemd/ftdetect.service $(DESTDIR)$(SYSTEMDUNITDIR)/ftdetect.service
	install -d -m 0755 $(DESTDIR)$(CONFDIR)
	$(if $(SYSTEMD_RUNNING),systemctl daemon-reload)

# Every file `make install` writes (userspace/mpi/mpi.mk adds the MPI glue's,
# for every MPI flavour, built here or not), so that uninstall removes
# exactly those: never a directory it may share with others.
INSTALLED += $(SBINDIR)/ftctl $(PREFIX)/bin/ftstat $(SYSTEMDUNITDIR)/ftdetect.service \
	$(BASHCOMPDIR)/ftctl $(BASHCOMPDIR)/ftstat \
	$(PREFIX)/share/man/man8/ftctl.8 $(PREFIX)/share/man/man8/ftstat.8 \
	$(PREFIX)/share/man/man5/ftdetect.conf.5 \
	$(INCLUDEDIR)/linux/ftdetect.h $(INCLUDEDIR)/ftdetect/ftdetect.h \
	$(LIBDIR)/$(LIB_REAL) $(LIBDIR)/$(LIB_SONAME) $(LIBDIR)/libftdetect.so \
	$(LIBDIR)/libftdetect.a $(LIBDIR)/pkgconfig/libftdetect.pc \
	$(PREFIX)/share/man/man3/libftdetect.3 $(LIB_MAN_LINKS:%=$(PREFIX)/share/man/man3/%.3)

# Like a package's removal, the unit is stopped (the peers see NODE_LEFT,
# not a death at the next reboot) and disabled before its file goes. The
# configuration stays: /etc/ftdetect goes only if empty.
uninstall:
	$(if $(SYSTEMD_RUNNING),-[ ! -e $(SYSTEMDUNITDIR)/ftdetect.service ] || systemctl disable --now ftdetect.service)
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir --ignore-fail-on-non-empty $(DESTDIR)$(INCLUDEDIR)/ftdetect \
		$(DESTDIR)$(PREFIX)/share/doc/ftdetect/examples $(DESTDIR)$(PREFIX)/share/doc/ftdetect \
		$(DESTDIR)$(CONFDIR) 2>/dev/null || true
	$(if $(DESTDIR),,ldconfig)
	$(if $(SYSTEMD_RUNNING),systemctl daemon-reload)

# ---------------------------------------------------------------- DKMS
# Only what kbuild needs goes to /usr/src: the module sources and the contract.
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := /usr/src/ftdetect-$(DKMS_VERSION)

# For the running kernel (DKMS then follows the kernels installed later),
# unless KERNELRELEASE is given (the tests give the VM's).
ifeq ($(origin KERNELRELEASE),file)
DKMS_KERNEL := $(shell uname -r)
else
DKMS_KERNEL := $(KERNELRELEASE)
endif

dkms-install:
	@test -e /lib/modules/$(DKMS_KERNEL)/build/Makefile || { \
		echo "dkms-install: no headers for kernel $(DKMS_KERNEL) (/lib/modules/$(DKMS_KERNEL)/build):" \
			"apt-get install linux-headers-$(DKMS_KERNEL), or name another kernel: make dkms-install KERNELRELEASE=R" >&2; \
		exit 1; }
	@echo "dkms-install: ftdetect $(DKMS_VERSION) for kernel $(DKMS_KERNEL)"
	-dkms remove -m ftdetect -v $(DKMS_VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/selftests/vm
	cp -r Makefile Kbuild dkms.conf kmod include $(DKMS_SRC)/
	cp selftests/vm/kernel-release $(DKMS_SRC)/selftests/vm/
	dkms add -m ftdetect -v $(DKMS_VERSION)
	dkms build -m ftdetect -v $(DKMS_VERSION) -k $(DKMS_KERNEL)
	dkms install -m ftdetect -v $(DKMS_VERSION) -k $(DKMS_KERNEL)

dkms-remove:
	-dkms remove -m ftdetect -v $(DKMS_VERSION) --all
	rm -rf $(DKMS_SRC)

# ---------------------------------------------------------------- packages
# make deb: the Debian packages of debian/ (ftdetect-dkms, ftdetect-tools,
# libftdetect1, libftdetect-dev, libftdetect-mpi-openmpi1,
# libftdetect-mpi-mpich1, libftdetect-mpi-dev), built by dpkg-buildpackage
# in a copy of the tree under build/deb/, so that neither the build's files
# nor the .debs (build/deb/*.deb) land in the tree or its parent. The copy
# has the files git has or would add (tracked, or untracked and not
# ignored): none of the products of a build in the tree (kbuild's, build/).
# selftests/deb/test-deb (make test-deb) checks the result.
DEB_SRC := $(B)/deb/ftdetect-$(DKMS_VERSION)
.PHONY: deb
deb: deps
	rm -rf $(B)/deb
	mkdir -p $(DEB_SRC)
	git ls-files -z --cached --others --exclude-standard | \
		tar --null --files-from=- --ignore-failed-read -cf - | tar -C $(DEB_SRC) -xf -
	cd $(DEB_SRC) && dpkg-buildpackage --build=binary --no-sign -J$$(nproc)
	@ls -1 $(B)/deb/*.deb

# The headers each object and unit test included (DEPFLAGS).
-include $(shell find $(B)/obj $(B)/unit $(B)/selftests $(B)/bench/bin -name '*.d' 2>/dev/null)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod clean
	rm -f Module.symvers modules.order	# left by a build from the top (Kbuild)
	rm -rf $(B)
