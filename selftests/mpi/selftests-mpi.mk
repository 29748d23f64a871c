# selftests/mpi: a real MPI job across the network namespaces of a test
# cluster (selftests/net/mpi_job.sh, docs/testing.md "MPI jobs").
# Included by the top Makefile. mpi_ring is built once per MPI whose
# compiler wrapper is installed (Debian's mpicc.openmpi, mpicc.mpich, and
# the other MPIs userspace/mpi/mpi.mk found); a missing MPI builds nothing
# and its test part skips, saying why.
MPI_SELFTEST_CC_openmpi := mpicc.openmpi
MPI_SELFTEST_CC_mpich := mpicc.mpich
$(foreach f,$(MPI_EXTRA_FLAVOURS),$(eval MPI_SELFTEST_CC_$(f) := $(MPICC_$(f))))
MPI_SELFTEST_FLAVOURS := $(foreach f,openmpi mpich,$(if $(shell command -v $(MPI_SELFTEST_CC_$(f)) 2>/dev/null),$(f))) \
	$(MPI_EXTRA_FLAVOURS)
MPI_SELFTEST_BINS := $(patsubst %,$(B)/selftests/mpi_ring.%,$(MPI_SELFTEST_FLAVOURS))
# mpi_unaware knows nothing of ftdetect: FTD_MPI_AUTO attaches it (the
# mpi-host stage and selftests/net/mpi_auto.sh preload the glue).
MPI_SELFTEST_BINS += $(patsubst %,$(B)/selftests/mpi_unaware.%,$(MPI_SELFTEST_FLAVOURS))
# mpi_watch tests libftdetect_mpi (userspace/mpi/mpi.mk builds it per MPI).
MPI_SELFTEST_BINS += $(patsubst %,$(B)/selftests/mpi_watch.%,$(filter $(MPI_FOUND),$(MPI_SELFTEST_FLAVOURS)))

.PHONY: selftests-mpi
selftests-mpi: $(MPI_SELFTEST_BINS)

# The MPI wrapper compiles with the tree's flags; the rank registers through
# the static libftdetect, so the binary needs nothing from the tree at run time.
$(B)/selftests/mpi_ring.%: selftests/mpi/mpi_ring.c $(B)/lib/libftdetect.a userspace/lib/ftdetect.h include/uapi/linux/ftdetect.h
	@mkdir -p $(@D)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPI_SELFTEST_CC_$*) $(UCFLAGS) -Wno-missing-prototypes -o $@ $< $(B)/lib/libftdetect.a -lpthread

$(B)/selftests/mpi_unaware.%: selftests/mpi/mpi_unaware.c
	@mkdir -p $(@D)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPI_SELFTEST_CC_$*) $(UCFLAGS) -Wno-missing-prototypes -o $@ $<

# Linked with the glue built for the same MPI, found at run time by rpath.
define mpi_watch_rule
$(B)/selftests/mpi_watch.$(1): selftests/mpi/mpi_watch.c $(B)/mpi/$(1)/libftdetect_mpi_$(1).so userspace/mpi/ftdetect_mpi.h
	@mkdir -p $$(@D)
	OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPI_SELFTEST_CC_$(1)) $(UCFLAGS) -Wno-missing-prototypes -Iuserspace/mpi \
		-o $$@ $$< -L$(B)/mpi/$(1) -l:libftdetect_mpi_$(1).so -Wl,-rpath,$(B)/mpi/$(1)
endef
$(foreach f,$(filter $(MPI_FOUND),$(MPI_SELFTEST_FLAVOURS)),$(eval $(call mpi_watch_rule,$(f))))

selftests: selftests-mpi
