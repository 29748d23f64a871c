# userspace/mpi/mpi.mk: libftdetect_mpi (the MPI glue), its example and its
# host tests. Included by the top Makefile, whose `all` builds `mpi`.
#
# MPI libraries are not ABI compatible, so the glue is built once per MPI
# found, each in its own directory, with its own name (as Debian does for
# HDF5: libhdf5_openmpi, libhdf5_mpich):
#
#   build/mpi/openmpi/libftdetect_mpi_openmpi.{so,a}, ftdetect-mpi-openmpi.pc,
#                     mpi_iterate (the example), ftd_mpi_config.h (ULFM probe)
#   build/mpi/mpich/  the same for MPICH
#   build/mpi/obj/    the MPI-independent objects (PIC)
#   build/mpi/test/   host tests (make test-mpi-host)
#
# FTD_MPI_FLAVOURS   MPIs to try (default: openmpi mpich, Debian's)
# MPICC_openmpi, MPICC_mpich   their compiler wrappers (Debian's names)
# MPICC=WRAPPER      another MPI, e.g. a site's Open MPI 5: MPICC=/opt/ompi/bin/mpicc
#   or MPI_PREFIX=DIR   (DIR/bin/mpicc); built as build/mpi/NAME/, NAME its
#                    family and major version (openmpi5) or FTD_MPI_NAME
# FTD_MPI_SEARCH     prefixes searched for more MPIs (shell patterns, see
#                    userspace/mpi/mpi-find; empty: none)
# FTD_ULFM=0|1       override the ULFM probe (userspace/mpi/mpi-probe): 1
#                    lets the library call MPIX_Comm_revoke, 0 never
# FTD_ULFM_RUN=0     decide ULFM at compile time only (no singleton run)
#
# A missing MPI is skipped, and `make mpi` says so; a missing libpmix-dev
# builds the glue without PMIx reports, and says so. Nothing here fails
# `make all` for lack of an MPI.

FTD_MPI_FLAVOURS ?= openmpi mpich
MPICC_openmpi ?= mpicc.openmpi
MPICC_mpich ?= mpicc.mpich
# Other MPIs: given (MPICC, MPI_PREFIX) or found (FTD_MPI_SEARCH), as
# NAME=WRAPPER words; `make mpi` shows what was skipped and why.
MPI_FIND_ENV = FTD_MPI_DEBIAN='$(foreach f,$(FTD_MPI_FLAVOURS),$(MPICC_$(f)))' \
	MPICC='$(MPICC)' MPI_PREFIX='$(MPI_PREFIX)' FTD_MPI_NAME='$(FTD_MPI_NAME)' \
	$(if $(filter undefined,$(origin FTD_MPI_SEARCH)),,FTD_MPI_SEARCH='$(FTD_MPI_SEARCH)')
MPI_EXTRA := $(shell $(MPI_FIND_ENV) $(CURDIR)/userspace/mpi/mpi-find 2>/dev/null)
$(foreach e,$(MPI_EXTRA),$(eval MPICC_$(firstword $(subst =, ,$(e))) := $(lastword $(subst =, ,$(e)))))
MPI_EXTRA_FLAVOURS := $(foreach e,$(MPI_EXTRA),$(firstword $(subst =, ,$(e))))
MPI_FOUND := $(foreach f,$(FTD_MPI_FLAVOURS),$(if $(shell command -v $(MPICC_$(f)) 2>/dev/null),$(f))) \
	$(MPI_EXTRA_FLAVOURS)
MPI_MISSING := $(filter-out $(MPI_FOUND),$(FTD_MPI_FLAVOURS))
# The system's PMIx: for the host tests, and for an MPI whose programs load
# no libpmix of their own (mpi-probe decides per MPI, pmix.cflags/pmix.libs).
MPI_PMIX := $(if $(shell pkg-config --exists pmix 2>/dev/null && echo y),1,0)
MPI_PMIX_CFLAGS = $(if $(filter 1,$(MPI_PMIX)),$(shell pkg-config --cflags pmix))
MPI_PMIX_LIBS = $(if $(filter 1,$(MPI_PMIX)),$(shell pkg-config --libs pmix))
MPI_PMIX_ENV = FTD_PMIX_SYSTEM=$(MPI_PMIX) FTD_PMIX_SYSTEM_CFLAGS='$(MPI_PMIX_CFLAGS)' \
	FTD_PMIX_SYSTEM_LIBS='$(MPI_PMIX_LIBS)' \
	FTD_PMIX_SYSTEM_VERSION='$(if $(filter 1,$(MPI_PMIX)),$(shell pkg-config --modversion pmix))'

MPI_B := $(B)/mpi
MPI_SRC_DIR := userspace/mpi
MPI_HDRS := $(wildcard $(MPI_SRC_DIR)/*.h) $(wildcard userspace/lib/*.h) userspace/common/json.h \
	include/uapi/linux/ftdetect.h
# Objects without MPI: the decision logic, the module's scope rule
# (kmod/proto/scope.c: a scope sorted and deduplicated as the module does),
# the JSON writer and libftdetect itself, compiled in with hidden symbols so
# that libftdetect_mpi needs no libftdetect.so at run time and clashes with
# no libftdetect an application also links.
MPI_COMMON_SRC = $(MPI_SRC_DIR)/group.c kmod/proto/scope.c userspace/common/json.c $(LIB_SRC)
MPI_COMMON_OBJS = $(patsubst %.c,$(MPI_B)/obj/%.o,$(notdir $(MPI_COMMON_SRC)))
# The files compiled once per MPI: those that call MPI (ftd_mpi_internal.h
# lists them) and the PMIx reports, against that MPI's own PMIx.
MPI_GLUE_SRC = $(wildcard $(MPI_SRC_DIR)/ftd_mpi*.c) $(MPI_SRC_DIR)/pmix_notify.c
MPI_CFLAGS = $(UCFLAGS) -fPIC -fvisibility=hidden -I$(CURDIR)/$(MPI_SRC_DIR)
MPI_VERSION = $(if $(DKMS_VERSION),$(DKMS_VERSION),0.1)
MPI_LIBDIR = $(if $(LIBDIR),$(LIBDIR),$(PREFIX)/lib)
MPI_INCLUDEDIR = $(if $(INCLUDEDIR),$(INCLUDEDIR),$(PREFIX)/include)

$(MPI_B)/obj/group.o: $(MPI_SRC_DIR)/group.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_B)/obj/%.o: userspace/lib/%.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_B)/obj/json.o: userspace/common/json.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_B)/obj/scope.o: kmod/proto/scope.c kmod/proto/scope.h kmod/proto/compat.h $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) -c -o $@ $<

.PHONY: FTD_MPI_FORCE
FTD_MPI_FORCE:

# The header where an installed one is: <ftdetect/ftdetect_mpi.h>.
$(MPI_B)/include/ftdetect/ftdetect_mpi.h: $(MPI_SRC_DIR)/ftdetect_mpi.h
	@mkdir -p $(@D)
	cp $< $@

# One MPI: mpi_flavour NAME
define mpi_flavour
MPI_$(1)_DIR := $(MPI_B)/$(1)
MPI_$(1)_LIB := libftdetect_mpi_$(1)

# The probe runs at every build, and rewrites the header (and pmix.cflags,
# pmix.libs beside it, read when a recipe runs) only on a change.
$$(MPI_$(1)_DIR)/ftd_mpi_config.h: $(MPI_SRC_DIR)/mpi-probe $(MPI_SRC_DIR)/ulfm_probe.c FTD_MPI_FORCE
	@$$(MPI_PMIX_ENV) $(MPI_SRC_DIR)/mpi-probe $(MPICC_$(1)) $$@
$$(MPI_$(1)_DIR)/pmix.cflags $$(MPI_$(1)_DIR)/pmix.libs: $$(MPI_$(1)_DIR)/ftd_mpi_config.h ;
MPI_$(1)_PMIX_CFLAGS = $$(shell cat $$(MPI_$(1)_DIR)/pmix.cflags)
MPI_$(1)_PMIX_LIBS = $$(shell cat $$(MPI_$(1)_DIR)/pmix.libs)

MPI_$(1)_OBJS := $$(patsubst $(MPI_SRC_DIR)/%.c,$$(MPI_$(1)_DIR)/%.o,$(MPI_GLUE_SRC))

$$(MPI_$(1)_DIR)/%.o: $(MPI_SRC_DIR)/%.c $(MPI_HDRS) $$(MPI_$(1)_DIR)/ftd_mpi_config.h $$(MPI_$(1)_DIR)/pmix.cflags
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $$(MPI_CFLAGS) $$(MPI_$(1)_PMIX_CFLAGS) -I$$(MPI_$(1)_DIR) -c -o $$@ $$<

$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so.1: $$(MPI_$(1)_OBJS) $$(MPI_COMMON_OBJS) $$(MPI_$(1)_DIR)/pmix.libs
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$$(@F) -Wl,-z,defs \
		-o $$@ $$(filter %.o,$$^) $$(MPI_$(1)_PMIX_LIBS) -lpthread

$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so: $$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so.1
	ln -sf $$(<F) $$@

# One relocatable object with everything but the API made local, so that a
# static link meets no second copy of libftdetect's symbols either.
$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).a: $$(MPI_$(1)_OBJS) $$(MPI_COMMON_OBJS)
	$(LD) -r -o $$(MPI_$(1)_DIR)/all.o $$^
	objcopy --localize-hidden $$(MPI_$(1)_DIR)/all.o
	rm -f $$@
	$(AR) rcs $$@ $$(MPI_$(1)_DIR)/all.o

$$(MPI_$(1)_DIR)/ftdetect-mpi-$(1).pc: $(MPI_SRC_DIR)/ftdetect-mpi.pc.in $$(MPI_$(1)_DIR)/ftd_mpi_config.h FTD_MPI_FORCE
	@sed -e 's|@PREFIX@|$$(PREFIX)|' -e 's|@LIBDIR@|$$(MPI_LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$$(MPI_INCLUDEDIR)|' -e 's|@VERSION@|$$(MPI_VERSION)|' \
		-e 's|@FLAVOUR@|$(1)|g' -e 's|@MPICC@|$(MPICC_$(1))|' -e 's|@PMIX_LIBS@|$$(filter -L% -lpmix,$$(MPI_$(1)_PMIX_LIBS))|' \
		-e "s|@DESCRIPTION@|$$$$(sed -n 's/^#define FTD_MPI_DESCRIPTION \"\(.*\)\"/\1/p' $$(MPI_$(1)_DIR)/ftd_mpi_config.h)|" \
		$$< > $$@.tmp
	@if cmp -s $$@.tmp $$@; then rm $$@.tmp; else mv $$@.tmp $$@; fi

# The example, run from the build tree (rpath); its ULFM part is compiled
# where the probe found ULFM.
$$(MPI_$(1)_DIR)/mpi_iterate: $(MPI_SRC_DIR)/examples/mpi_iterate.c $(MPI_B)/include/ftdetect/ftdetect_mpi.h \
		$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so $$(MPI_$(1)_DIR)/ftd_mpi_config.h
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(WARN) -std=gnu11 \
		-include $$(MPI_$(1)_DIR)/ftd_mpi_config.h -I$(MPI_B)/include -o $$@ $$< \
		-L$$(MPI_$(1)_DIR) -l:$$(MPI_$(1)_LIB).so -Wl,-rpath,$$(MPI_$(1)_DIR)

# Host test: the library in real MPI jobs on this machine, no device.
$$(MPI_$(1)_DIR)/mpi_smoke: selftests/mpi-host/mpi_smoke.c $(MPI_SRC_DIR)/ftdetect_mpi.h \
		$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so $$(MPI_$(1)_DIR)/pmix_notify.o
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(WARN) -std=gnu11 -Wno-missing-prototypes \
		-include $$(MPI_$(1)_DIR)/ftd_mpi_config.h \
		-I$(MPI_SRC_DIR) -I$(CURDIR)/userspace $$(MPI_$(1)_PMIX_CFLAGS) \
		-o $$@ $$< $$(MPI_$(1)_DIR)/pmix_notify.o -L$$(MPI_$(1)_DIR) -l:$$(MPI_$(1)_LIB).so \
		-Wl,-rpath,$$(MPI_$(1)_DIR) $$(MPI_$(1)_PMIX_LIBS) -lpthread

MPI_TARGETS += $$(addprefix $$(MPI_$(1)_DIR)/,$$(MPI_$(1)_LIB).so $$(MPI_$(1)_LIB).so.1 \
	$$(MPI_$(1)_LIB).a ftdetect-mpi-$(1).pc mpi_iterate)
MPI_TEST_BINS += $$(MPI_$(1)_DIR)/mpi_smoke
endef

$(foreach f,$(MPI_FOUND),$(eval $(call mpi_flavour,$(f))))

# What was built, and what not and why.
mpi: $(MPI_TARGETS)
	@$(foreach f,$(MPI_FOUND),cfg=$(MPI_B)/$(f)/ftd_mpi_config.h; \
	desc=$$(sed -n 's/^#define FTD_MPI_DESCRIPTION "\(.*\)"/\1/p' $$cfg); \
	ulfm=$$(sed -n 's/^#define FTD_MPI_HAVE_ULFM //p' $$cfg); \
	why=$$(sed -n 's/^#define FTD_MPI_ULFM_REASON "\(.*\)"/\1/p' $$cfg); \
	orte=$$(sed -n 's/^#define FTD_MPI_ORTE //p' $$cfg); \
	pmix=$$(sed -n 's/^#define FTD_MPI_PMIX_SOURCE "\(.*\)"/\1/p' $$cfg); \
	echo "mpi: $(f): $$desc ($(MPICC_$(f))): built build/mpi/$(f)/libftdetect_mpi_$(f).so and .a, ftdetect-mpi-$(f).pc, mpi_iterate"; \
	if [ "$$ulfm" = 1 ]; then echo "mpi: $(f):   ULFM: yes, failures revoke the attached communicators where that cannot hang (ftdetect_mpi(3), ULFM) ($$why)"; \
	else echo "mpi: $(f):   ULFM: no, callbacks only, MPIX_Comm_revoke is never called ($$why)"; fi; \
	echo "mpi: $(f):   PMIx: $$pmix"; \
	if [ "$$orte" = 1 ]; then echo "mpi: $(f):   PMIx reports: off by default, its runtime (ORTE) cannot relay them (FTD_MPI_PMIX=1 forces them)"; fi;)
	@$(foreach f,$(MPI_MISSING),echo "mpi: $(f): skipped: $(MPICC_$(f)) not found (selftests/deps/install installs Debian's MPIs)";)
	@$(MPI_FIND_ENV) $(CURDIR)/userspace/mpi/mpi-find >/dev/null
	@$(if $(MPI_FOUND),,echo "mpi: no MPI found: libftdetect_mpi not built")

# ---------------------------------------------------------------- install
# Each function of ftdetect_mpi(3) gets a man page name.
MPI_MAN_LINKS := ftd_mpi_attach ftd_mpi_detach ftd_mpi_set_callback ftd_mpi_register \
	ftd_mpi_identity ftd_mpi_progress ftd_mpi_fd ftd_mpi_failed ftd_mpi_node_of \
	ftd_mpi_features ftd_mpi_strerror ftd_mpi_cause_name ftd_mpi_action_name
INSTALLED += $(MPI_INCLUDEDIR)/ftdetect/ftdetect_mpi.h $(PREFIX)/share/man/man3/ftdetect_mpi.3 \
	$(MPI_MAN_LINKS:%=$(PREFIX)/share/man/man3/%.3) \
	$(PREFIX)/share/doc/ftdetect/examples/mpi_iterate.c \
	$(foreach f,$(sort $(FTD_MPI_FLAVOURS) $(MPI_EXTRA_FLAVOURS)),$(addprefix $(MPI_LIBDIR)/,libftdetect_mpi_$(f).so.1 \
		libftdetect_mpi_$(f).so libftdetect_mpi_$(f).a pkgconfig/ftdetect-mpi-$(f).pc))

.PHONY: install-mpi
install: install-mpi
install-mpi: mpi
	install -D -m 0644 $(MPI_SRC_DIR)/ftdetect_mpi.h $(DESTDIR)$(MPI_INCLUDEDIR)/ftdetect/ftdetect_mpi.h
	install -D -m 0644 docs/man/ftdetect_mpi.3 $(DESTDIR)$(PREFIX)/share/man/man3/ftdetect_mpi.3
	for f in $(MPI_MAN_LINKS); do \
		echo '.so man3/ftdetect_mpi.3' > $(DESTDIR)$(PREFIX)/share/man/man3/$$f.3; done
	install -D -m 0644 $(MPI_SRC_DIR)/examples/mpi_iterate.c \
		$(DESTDIR)$(PREFIX)/share/doc/ftdetect/examples/mpi_iterate.c
	$(foreach f,$(MPI_FOUND),\
	install -D -m 0755 $(MPI_B)/$(f)/libftdetect_mpi_$(f).so.1 $(DESTDIR)$(MPI_LIBDIR)/libftdetect_mpi_$(f).so.1 && \
	ln -sf libftdetect_mpi_$(f).so.1 $(DESTDIR)$(MPI_LIBDIR)/libftdetect_mpi_$(f).so && \
	install -D -m 0644 $(MPI_B)/$(f)/libftdetect_mpi_$(f).a $(DESTDIR)$(MPI_LIBDIR)/libftdetect_mpi_$(f).a && \
	install -D -m 0644 $(MPI_B)/$(f)/ftdetect-mpi-$(f).pc $(DESTDIR)$(MPI_LIBDIR)/pkgconfig/ftdetect-mpi-$(f).pc;)

# ---------------------------------------------------------------- host tests
# make test-mpi-host: TAP from selftests/mpi-host/run (selftests/run-all runs
# it as the mpi-host stage): the decision logic, the PMIx report against a
# real PMIx server, and the library in real MPI jobs on this machine. What
# cannot run here (no PMIx, no MPI) is a SKIP that says why.
MPI_T := $(MPI_B)/test
MPI_TEST_BINS += $(MPI_T)/test_group
ifeq ($(MPI_PMIX),1)
MPI_TEST_BINS += $(MPI_T)/test_pmix_notify $(MPI_T)/pmix-notify-client
endif

$(MPI_T)/test_group: selftests/mpi-host/test_group.c $(MPI_SRC_DIR)/group.c kmod/proto/scope.c \
		$(MPI_HDRS) selftests/harness.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests -I$(CURDIR)/$(MPI_SRC_DIR) \
		-Wno-missing-prototypes -o $@ $< $(MPI_SRC_DIR)/group.c kmod/proto/scope.c

$(MPI_T)/test_pmix_notify: selftests/mpi-host/test_pmix_notify.c selftests/harness.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests $(MPI_PMIX_CFLAGS) \
		-Wno-missing-prototypes -o $@ $< $(MPI_PMIX_LIBS) -lpthread

$(MPI_T)/pmix-notify-client: selftests/mpi-host/pmix_notify_client.c $(MPI_SRC_DIR)/pmix_notify.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -DFTD_HAVE_PMIX=1 $(MPI_PMIX_CFLAGS) \
		-o $@ $< $(MPI_SRC_DIR)/pmix_notify.c $(MPI_PMIX_LIBS) -lpthread

.PHONY: test-mpi-host
test-mpi-host: $(MPI_TEST_BINS) mpi selftests-mpi
	@FTD_MPI_FOUND="$(strip $(MPI_FOUND))" FTD_MPI_MISSING="$(MPI_MISSING)" FTD_MPI_BUILT_PMIX=$(MPI_PMIX) \
		FTD_MPI_WRAPPERS="$(foreach f,$(MPI_FOUND),$(f)=$(MPICC_$(f)))" \
		selftests/mpi-host/run $(MPI_B)
