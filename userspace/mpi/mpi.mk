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
# FTD_MPI_FLAVOURS   MPIs to try (default: openmpi mpich)
# MPICC_openmpi, MPICC_mpich   their compiler wrappers (Debian's names)
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
MPI_FOUND := $(foreach f,$(FTD_MPI_FLAVOURS),$(if $(shell command -v $(MPICC_$(f)) 2>/dev/null),$(f)))
MPI_MISSING := $(filter-out $(MPI_FOUND),$(FTD_MPI_FLAVOURS))
MPI_PMIX := $(if $(shell pkg-config --exists pmix 2>/dev/null && echo y),1,0)
MPI_PMIX_CFLAGS = $(if $(filter 1,$(MPI_PMIX)),$(shell pkg-config --cflags pmix))
MPI_PMIX_LIBS = $(if $(filter 1,$(MPI_PMIX)),$(shell pkg-config --libs pmix))

MPI_B := $(B)/mpi
MPI_SRC_DIR := userspace/mpi
MPI_HDRS := $(wildcard $(MPI_SRC_DIR)/*.h) $(wildcard userspace/lib/*.h) include/uapi/linux/ftdetect.h
# Objects without MPI: the decision logic, the PMIx reports, and libftdetect
# itself, compiled in with hidden symbols so that libftdetect_mpi needs no
# libftdetect.so at run time and clashes with no libftdetect an application
# also links.
MPI_COMMON_SRC = $(MPI_SRC_DIR)/group.c $(MPI_SRC_DIR)/pmix_notify.c $(LIB_SRC)
MPI_COMMON_OBJS = $(patsubst %.c,$(MPI_B)/obj/%.o,$(notdir $(MPI_COMMON_SRC)))
# The files that call MPI, compiled once per MPI (ftd_mpi_internal.h lists them).
MPI_GLUE_SRC = $(wildcard $(MPI_SRC_DIR)/ftd_mpi*.c)
MPI_CFLAGS = $(UCFLAGS) -fPIC -fvisibility=hidden -DFTD_HAVE_PMIX=$(MPI_PMIX) \
	-I$(CURDIR)/$(MPI_SRC_DIR)
MPI_VERSION = $(if $(DKMS_VERSION),$(DKMS_VERSION),0.1)
MPI_LIBDIR = $(if $(LIBDIR),$(LIBDIR),$(PREFIX)/lib)
MPI_INCLUDEDIR = $(if $(INCLUDEDIR),$(INCLUDEDIR),$(PREFIX)/include)

$(MPI_B)/obj/group.o: $(MPI_SRC_DIR)/group.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_B)/obj/pmix_notify.o: $(MPI_SRC_DIR)/pmix_notify.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MPI_CFLAGS) $(MPI_PMIX_CFLAGS) -c -o $@ $<

$(MPI_B)/obj/%.o: userspace/lib/%.c $(MPI_HDRS)
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

# The probe runs at every build, and rewrites the header only on a change.
$$(MPI_$(1)_DIR)/ftd_mpi_config.h: $(MPI_SRC_DIR)/mpi-probe $(MPI_SRC_DIR)/ulfm_probe.c FTD_MPI_FORCE
	@$(MPI_SRC_DIR)/mpi-probe $(MPICC_$(1)) $$@

MPI_$(1)_OBJS := $$(patsubst $(MPI_SRC_DIR)/%.c,$$(MPI_$(1)_DIR)/%.o,$(MPI_GLUE_SRC))

$$(MPI_$(1)_DIR)/%.o: $(MPI_SRC_DIR)/%.c $(MPI_HDRS) $$(MPI_$(1)_DIR)/ftd_mpi_config.h
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $$(MPI_CFLAGS) -I$$(MPI_$(1)_DIR) -c -o $$@ $$<

$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so.1: $$(MPI_$(1)_OBJS) $$(MPI_COMMON_OBJS)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$$(@F) -Wl,-z,defs \
		-o $$@ $$^ $$(MPI_PMIX_LIBS) -lpthread

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
		-e 's|@FLAVOUR@|$(1)|g' -e 's|@PMIX_LIBS@|$$(if $$(filter 1,$$(MPI_PMIX)),-lpmix)|' \
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
		$$(MPI_$(1)_DIR)/$$(MPI_$(1)_LIB).so $$(MPI_COMMON_OBJS)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPICC_$(1)) $(CFLAGS) $(WARN) -std=gnu11 -Wno-missing-prototypes \
		-include $$(MPI_$(1)_DIR)/ftd_mpi_config.h \
		-DFTD_HAVE_PMIX=$(MPI_PMIX) -I$(MPI_SRC_DIR) -I$(CURDIR)/userspace $$(MPI_PMIX_CFLAGS) \
		-o $$@ $$< $(MPI_B)/obj/pmix_notify.o -L$$(MPI_$(1)_DIR) -l:$$(MPI_$(1)_LIB).so \
		-Wl,-rpath,$$(MPI_$(1)_DIR) $$(MPI_PMIX_LIBS) -lpthread

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
	echo "mpi: $(f): $$desc ($(MPICC_$(f))): built build/mpi/$(f)/libftdetect_mpi_$(f).so and .a, ftdetect-mpi-$(f).pc, mpi_iterate"; \
	if [ "$$ulfm" = 1 ]; then echo "mpi: $(f):   ULFM: yes, failures revoke the attached communicators ($$why)"; \
	else echo "mpi: $(f):   ULFM: no, callbacks only, MPIX_Comm_revoke is never called ($$why)"; fi; \
	if [ "$$orte" = 1 ]; then echo "mpi: $(f):   PMIx reports: off by default, its runtime (ORTE) cannot relay them (FTD_MPI_PMIX=1 forces them)"; fi;)
	@$(if $(filter 1,$(MPI_PMIX)),echo "mpi: PMIx: yes (libpmix $$(pkg-config --modversion pmix)): failures are reported to the runtime when a PMIx server launched the job",echo "mpi: PMIx: no (pkg-config finds no pmix; apt-get install libpmix-dev): failures are not reported through PMIx")
	@$(foreach f,$(MPI_MISSING),echo "mpi: $(f): skipped: $(MPICC_$(f)) not found (selftests/deps/install installs Debian's MPIs)";)
	@$(if $(MPI_FOUND),,echo "mpi: no MPI found: libftdetect_mpi not built")

# ---------------------------------------------------------------- install
# Each function of ftdetect_mpi(3) gets a man page name.
MPI_MAN_LINKS := ftd_mpi_attach ftd_mpi_detach ftd_mpi_set_callback ftd_mpi_register \
	ftd_mpi_identity ftd_mpi_progress ftd_mpi_fd ftd_mpi_failed ftd_mpi_node_of \
	ftd_mpi_features ftd_mpi_strerror ftd_mpi_cause_name ftd_mpi_action_name
INSTALLED += $(MPI_INCLUDEDIR)/ftdetect/ftdetect_mpi.h $(PREFIX)/share/man/man3/ftdetect_mpi.3 \
	$(MPI_MAN_LINKS:%=$(PREFIX)/share/man/man3/%.3) \
	$(PREFIX)/share/doc/ftdetect/examples/mpi_iterate.c \
	$(foreach f,$(FTD_MPI_FLAVOURS),$(addprefix $(MPI_LIBDIR)/,libftdetect_mpi_$(f).so.1 \
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

$(MPI_T)/test_group: selftests/mpi-host/test_group.c $(MPI_SRC_DIR)/group.c $(MPI_HDRS) selftests/harness.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests -I$(CURDIR)/$(MPI_SRC_DIR) \
		-Wno-missing-prototypes -o $@ $< $(MPI_SRC_DIR)/group.c

$(MPI_T)/test_pmix_notify: selftests/mpi-host/test_pmix_notify.c selftests/harness.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests $(MPI_PMIX_CFLAGS) \
		-Wno-missing-prototypes -o $@ $< $(MPI_PMIX_LIBS) -lpthread

$(MPI_T)/pmix-notify-client: selftests/mpi-host/pmix_notify_client.c $(MPI_SRC_DIR)/pmix_notify.c $(MPI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fsanitize=address,undefined -DFTD_HAVE_PMIX=1 $(MPI_PMIX_CFLAGS) \
		-o $@ $< $(MPI_SRC_DIR)/pmix_notify.c $(MPI_PMIX_LIBS) -lpthread

.PHONY: test-mpi-host
test-mpi-host: $(MPI_TEST_BINS) mpi
	@FTD_MPI_FOUND="$(MPI_FOUND)" FTD_MPI_MISSING="$(MPI_MISSING)" FTD_MPI_BUILT_PMIX=$(MPI_PMIX) \
		selftests/mpi-host/run $(MPI_B)
