# The MPI glue (userspace/mpi/): placeholder until it lands.
mpi:
