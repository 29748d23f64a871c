# ftdetect: one top-level make for the module, the eBPF programs, the
# user-space library and tools, and the tests.
#
#   make            module + user space
#   make deps       install the Debian packages everything needs (root)
#   make test       every test: host unit tests, DKMS, then the VM suite
#   make demo       boot the VM, run a small cluster, kill a node, show detection
#   make install    install tools, library, headers (DESTDIR, PREFIX)
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
UCFLAGS = $(CFLAGS) $(WARN) -std=gnu11 -I$(CURDIR)/include/uapi -I$(CURDIR)/kmod -I$(CURDIR)/userspace

export KERNELRELEASE KDIR

.PHONY: all module userspace tools lib unit test test-unit test-dkms test-vm demo deps clean install

all: module userspace

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# ---------------------------------------------------------------- user space
PROTO_SRC := $(wildcard kmod/proto/*.c)
COMMON_SRC := userspace/common/nl.c userspace/common/names.c userspace/common/duration.c
LIB_SRC := userspace/lib/ftdetect.c

userspace: tools lib
tools: $(B)/bin/ftctl $(B)/bin/ftstat
lib: $(B)/lib/libftdetect.so $(B)/lib/libftdetect.a

$(B)/bin/ftctl: userspace/ftctl/*.c userspace/ftctl/*.h $(COMMON_SRC) userspace/common/*.h include/uapi/linux/ftdetect.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(NL_CFLAGS) -o $@ userspace/ftctl/*.c $(COMMON_SRC) $(NL_LIBS)

$(B)/bin/ftstat: userspace/ftstat/*.c userspace/ftstat/*.h $(COMMON_SRC) userspace/common/*.h include/uapi/linux/ftdetect.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(NL_CFLAGS) -o $@ userspace/ftstat/*.c $(COMMON_SRC) $(NL_LIBS)

$(B)/lib/libftdetect.so: $(LIB_SRC) userspace/lib/ftdetect.h include/uapi/linux/ftdetect.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -fPIC -shared -Wl,-soname,libftdetect.so.1 -o $@ $(LIB_SRC)

$(B)/lib/libftdetect.a: $(LIB_SRC) userspace/lib/ftdetect.h include/uapi/linux/ftdetect.h
	@mkdir -p $(B)/obj
	$(CC) $(UCFLAGS) -c -o $(B)/obj/libftdetect.o $(LIB_SRC)
	$(AR) rcs $@ $(B)/obj/libftdetect.o

# ---------------------------------------------------------------- tests
# Host-side unit tests of the protocol core and the tools' parsers (TAP).
UNIT_TESTS := $(patsubst selftests/unit/%.c,$(B)/unit/%,$(wildcard selftests/unit/*.c))

$(B)/unit/%: selftests/unit/%.c $(PROTO_SRC) $(COMMON_SRC) kmod/proto/*.h selftests/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(NL_CFLAGS) -fsanitize=address,undefined -I$(CURDIR)/selftests -o $@ $< $(PROTO_SRC) $(COMMON_SRC) $(NL_LIBS)

unit: $(UNIT_TESTS)

test-unit: unit
	selftests/run-unit $(UNIT_TESTS)

test-dkms: deps
	selftests/dkms/test-dkms

test-vm: all
	selftests/vm/run

# The README's test command: installs what it needs, then runs everything.
test: deps
	$(MAKE) all unit
	selftests/run-all

demo: deps
	$(MAKE) all
	selftests/vm/run selftests/demo/demo.sh

deps:
	@selftests/deps/install

install: userspace
	install -D -m 0755 $(B)/bin/ftctl $(DESTDIR)$(PREFIX)/sbin/ftctl
	install -D -m 0755 $(B)/bin/ftstat $(DESTDIR)$(PREFIX)/bin/ftstat
	install -D -m 0644 include/uapi/linux/ftdetect.h $(DESTDIR)$(PREFIX)/include/linux/ftdetect.h
	install -D -m 0644 userspace/lib/ftdetect.h $(DESTDIR)$(PREFIX)/include/ftdetect/ftdetect.h
	install -D -m 0755 $(B)/lib/libftdetect.so $(DESTDIR)$(PREFIX)/lib/libftdetect.so.1
	ln -sf libftdetect.so.1 $(DESTDIR)$(PREFIX)/lib/libftdetect.so
	install -D -m 0644 $(B)/lib/libftdetect.a $(DESTDIR)$(PREFIX)/lib/libftdetect.a
	install -D -m 0644 docs/man/ftctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/ftctl.8
	install -D -m 0644 docs/man/ftstat.8 $(DESTDIR)$(PREFIX)/share/man/man8/ftstat.8

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(B)
