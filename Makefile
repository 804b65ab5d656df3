# motion-orientationd: build, test, demo, install.
# `make demo` and `make test` install any missing Debian package first (needs root).

PREFIX     ?= /usr
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
SYSCONFDIR ?= /etc
# System paths come from pkg-config when the .pc files are there, else the usual ones.
pc_var = $(or $(shell pkg-config --variable=$(2) $(1) 2>/dev/null),$(3))
UNITDIR     ?= $(call pc_var,systemd,systemdsystemunitdir,$(PREFIX)/lib/systemd/system)
SYSUSERSDIR ?= $(call pc_var,systemd,sysusersdir,$(PREFIX)/lib/sysusers.d)
UDEVDIR     ?= $(call pc_var,udev,udevdir,$(PREFIX)/lib/udev)
DBUSDIR     ?= $(DATADIR)/dbus-1
DBUSINTERFACESDIR ?= $(DBUSDIR)/interfaces
# Man pages by section, and the interface's introspection data (docs/).
MAN1 := docs/man/motion-orientation.1
MAN5 := docs/man/motion-orientationd.conf.5
MAN8 := docs/man/motion-orientationd.8
INTERFACE_XML := docs/io.github.MotionOrientation1.xml

PYTHON   := /usr/bin/python3
# Python for the scripts outside Tests/integration that use its rig package (bench, link-order).
RIG_PYTHON := PYTHONPATH=$(CURDIR)/Tests/integration $(PYTHON)
SWIFT    ?= swift
RELEASE  := .build/release
PACKAGES := libudev-dev libsystemd-dev libstdc++-12-dev pkg-config umockdev gir1.2-umockdev-1.0 python3-gi \
            python3-dbusmock python3-pytest python3-pytest-xdist dbus systemd iio-sensor-proxy strace groff-base man-db \
            acl qemu-system-x86 linux-image-amd64 busybox-static cpio libinput-tools i2c-tools python3-venv
# `make test-kernel`: virtme-ng (PyPI, not in Debian 12) boots the kernel with the host's root
# file system; it lives in a venv of its own under .build (Debian's pip leaves the system alone).
KERNEL_VENV := .build/kernel-venv
VIRTME_NG   := virtme-ng==1.42
KERNEL_PYTEST_ARGS ?=
# `make install` strips the binaries with $(STRIP); `STRIP=` installs them as built.
STRIP ?= strip

.PHONY: all deps build test test-unit test-integration test-kernel demo bench bench-kernel install uninstall clean \
        fuzz test-asan valgrind link-order

all: build

deps:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@if [ ! -x $(KERNEL_VENV)/bin/vng ]; then \
	  echo "Installing $(VIRTME_NG) into $(KERNEL_VENV) (for make test-kernel)"; \
	  $(PYTHON) -m venv --system-site-packages $(KERNEL_VENV) && \
	  $(KERNEL_VENV)/bin/pip install -q --disable-pip-version-check '$(VIRTME_NG)' || \
	  echo "deps: virtme-ng not installed: make test-kernel will be skipped"; \
	fi

# The tests, the demo and the bench run .build/release as shipped: a plain `swift build -c release`
# writes a daemon that loads the Swift runtime as shared libraries into the same place, which
# they refuse (Tests/integration/rig/linkage.py). Its check here says so at once.
build:
	$(SWIFT) build -c release --static-swift-stdlib
	$(PYTHON) Tests/integration/rig/linkage.py $(RELEASE)/motion-orientationd

test: deps build test-unit test-integration test-kernel test-systemd

test-unit:
	$(SWIFT) test

# The firmware matrix (docs/testing.md) runs by itself, two cells at a time: its tests mostly
# wait for a hub's reports and the daemon's decisions, each with a daemon and a bus of its own.
MATRIX := Tests/integration/test_firmware_matrix.py
test-integration:
	$(PYTHON) -m pytest -v Tests/integration --ignore=$(MATRIX)
	$(PYTHON) -m pytest -v -n 2 $(MATRIX)

# The real kernel's drivers, udev and libinput in a VM (docs/testing.md): QEMU boots Debian's
# kernel (KVM if it boots within a probe, else TCG), Tests/kernel runs inside, and pytest's
# closing line comes back. Where no VM can start it says why and is skipped (exit 0).
test-kernel: build
	$(PYTHON) Tests/kernel/run.py --build-dir $(RELEASE) $(KERNEL_PYTEST_ARGS)

# The install path under systemd as PID 1 (docs/testing.md): one QEMU boot with its own small
# initramfs, `make install` into the VM's overlay, the unit started by udev and by D-Bus
# activation in its shipped sandbox (Tests/kernel/systemd). Skipped, with why, where no VM starts.
.PHONY: test-systemd
SYSTEMD_PYTEST_ARGS ?=
test-systemd: build
	$(PYTHON) Tests/kernel/systemd/run.py --build-dir $(RELEASE) $(SYSTEMD_PYTEST_ARGS)

# Figures from the same VM: motion-orientationd beside iio-sensor-proxy on one emulated HID hub
# (change-only and streaming), claimed and still (Tests/kernel/bench_kernel.py). About 4 minutes.
bench-kernel: deps build
	$(PYTHON) Tests/kernel/run.py --bench --build-dir $(RELEASE)

demo: deps build
	$(PYTHON) Tests/integration/demo.py

# Figures, not tests: estimator-bench's throughput and trace corpus table, then
# motion-orientationd measured side by side with iio-sensor-proxy on one fake device (one
# table, JSON in bench/results.json), then the mixed day (two 10-minute workloads). About 30
# minutes; BENCH_ARGS=--quick for a 5-minute smoke run; BENCH_ARGS='--day-only --variant ...'
# for the day alone per [Sampling] variant; `make bench BENCH_ARGS=--help` lists the knobs.
BENCH_ARGS ?=
bench: deps build
	cd $(CURDIR) && $(RIG_PYTHON) -m bench --build-dir $(RELEASE) $(BENCH_ARGS)

# The daemon's executed functions, run under callgrind on the test rig, into
# build-aux/motion-orientationd.order: the linker lays them out together (Package.swift).
# Re-run when what the daemon executes changes; commit the list, then rebuild.
link-order: deps build
	@command -v valgrind >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	$(RIG_PYTHON) build-aux/hot-functions.py --daemon $(RELEASE)/motion-orientationd
	rm -f $(RELEASE)/motion-orientationd  # SwiftPM does not see the list as an input of the link
	$(SWIFT) build -c release --static-swift-stdlib

install: build
	install -Dm755 $(if $(STRIP),-s --strip-program=$(STRIP)) $(RELEASE)/motion-orientationd $(DESTDIR)$(BINDIR)/motion-orientationd
	install -Dm755 $(if $(STRIP),-s --strip-program=$(STRIP)) $(RELEASE)/motion-orientation $(DESTDIR)$(BINDIR)/motion-orientation
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@bindir@|$(BINDIR)|g' systemd/motion-orientationd.service > $(DESTDIR)$(UNITDIR)/motion-orientationd.service
	install -Dm644 systemd/motion-orientation.sysusers $(DESTDIR)$(SYSUSERSDIR)/motion-orientation.conf
	install -Dm644 systemd/io.github.MotionOrientation1.conf $(DESTDIR)$(DBUSDIR)/system.d/io.github.MotionOrientation1.conf
	install -Dm644 systemd/io.github.MotionOrientation1.service $(DESTDIR)$(DBUSDIR)/system-services/io.github.MotionOrientation1.service
	install -Dm644 udev/80-motion-orientation.rules $(DESTDIR)$(UDEVDIR)/rules.d/80-motion-orientation.rules
	install -Dm755 udev/motion-orientation-access $(DESTDIR)$(UDEVDIR)/motion-orientation-access
	install -Dm644 -t $(DESTDIR)$(MANDIR)/man1 $(MAN1)
	install -Dm644 -t $(DESTDIR)$(MANDIR)/man5 $(MAN5)
	install -Dm644 -t $(DESTDIR)$(MANDIR)/man8 $(MAN8)
	install -Dm644 -t $(DESTDIR)$(DBUSINTERFACESDIR) $(INTERFACE_XML)
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/motion-orientationd.conf ]; then \
	  echo "keeping existing $(DESTDIR)$(SYSCONFDIR)/motion-orientationd.conf"; \
	else \
	  install -Dm644 systemd/motion-orientationd.conf $(DESTDIR)$(SYSCONFDIR)/motion-orientationd.conf; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/motion-orientationd $(DESTDIR)$(BINDIR)/motion-orientation \
	  $(DESTDIR)$(UNITDIR)/motion-orientationd.service \
	  $(DESTDIR)$(SYSUSERSDIR)/motion-orientation.conf \
	  $(DESTDIR)$(DBUSDIR)/system.d/io.github.MotionOrientation1.conf \
	  $(DESTDIR)$(DBUSDIR)/system-services/io.github.MotionOrientation1.service \
	  $(DESTDIR)$(UDEVDIR)/rules.d/80-motion-orientation.rules \
	  $(DESTDIR)$(UDEVDIR)/motion-orientation-access \
	  $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	  $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	  $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN8))) \
	  $(DESTDIR)$(DBUSINTERFACESDIR)/$(notdir $(INTERFACE_XML))
	@echo "left $(DESTDIR)$(SYSCONFDIR)/motion-orientationd.conf in place (your configuration)"

clean:
	rm -rf .build

# --- Hardening checks (issue 7); not part of `make test`.

# libFuzzer on OrientationCore's parsers (config, sysfs numbers, mount matrix, traces, scan
# types): each target FUZZ_SECONDS from its seeds in Fuzz/corpus/<target>; fails on a finding
# (Fuzz/run.sh prints it; artifacts in $(FUZZ_BUILD)/artifacts).
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= /tmp/mo-fuzz-build
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=$(FUZZ_BUILD) Fuzz/run.sh

# The integration suite against daemon and client built with AddressSanitizer (and
# LeakSanitizer at exit) in their own scratch path. A sanitizer report fails the run: the
# daemon's exit status at teardown, and any report file left in $(ASAN_BUILD)/reports.
# Swift keeps a weak reference's side table behind a tagged pointer LeakSanitizer cannot
# follow, hence the one suppression. The client runs without LeakSanitizer (a command-line
# tool that exits; its memory errors are still caught). The `make install` test is left out
# (it builds the release binaries). ASAN_PYTEST_ARGS e.g. -m "not slow".
ASAN_BUILD       ?= /tmp/mo-asan-build
ASAN_PYTEST_ARGS ?=
ASAN_SWIFTFLAGS  := -c release --scratch-path $(ASAN_BUILD) -Xswiftc -sanitize=address \
                    -Xcc -fsanitize=address -Xswiftc -g
test-asan: deps
	$(SWIFT) build $(ASAN_SWIFTFLAGS) --product motion-orientationd
	$(SWIFT) build $(ASAN_SWIFTFLAGS) --product motion-orientation
	rm -rf $(ASAN_BUILD)/reports && mkdir -p $(ASAN_BUILD)/reports
	printf 'leak:*formWeakReference*\n' > $(ASAN_BUILD)/lsan.supp
	printf '#!/bin/sh\nASAN_OPTIONS="$$ASAN_OPTIONS:detect_leaks=0" exec %s "$$@"\n' \
	  $(ASAN_BUILD)/release/motion-orientation > $(ASAN_BUILD)/motion-orientation-asan
	chmod +x $(ASAN_BUILD)/motion-orientation-asan
	MO_DAEMON=$(ASAN_BUILD)/release/motion-orientationd MO_CLIENT=$(ASAN_BUILD)/motion-orientation-asan \
	  ASAN_OPTIONS=detect_leaks=1:log_path=$(ASAN_BUILD)/reports/asan:log_exe_name=1 \
	  LSAN_OPTIONS=suppressions=$(ASAN_BUILD)/lsan.supp:print_suppressions=0 \
	  SWIFT_BACKTRACE=enable=no MO_SANITIZER=address MO_LOAD_SLOWDOWN=3 \
	  $(PYTHON) -m pytest -v Tests/integration $(ASAN_PYTEST_ARGS) \
	    --deselect Tests/integration/test_install.py::test_install_honours_destdir_and_prefix; \
	  status=$$?; \
	if ls $(ASAN_BUILD)/reports/asan* >/dev/null 2>&1; then \
	  echo "test-asan: sanitizer reports:"; cat $(ASAN_BUILD)/reports/asan*; exit 1; \
	fi; exit $$status

# The release daemon under valgrind's memcheck through rounds of 500 claiming clients
# (test_load.py::test_valgrind_claim_workload); fails on a memory error or on memory
# definitely lost at exit. The log: $(VALGRIND_DIR)/memcheck.log. The suppression is the
# same Swift weak-reference side table as above (a tagged pointer memcheck cannot follow).
VALGRIND_DIR ?= /tmp/mo-valgrind
valgrind: build
	@command -v valgrind >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	mkdir -p $(VALGRIND_DIR)
	printf '{\n   swift-weak-reference-side-table\n   Memcheck:Leak\n   match-leak-kinds: definite\n   ...\n   fun:swift_slowAlloc\n   fun:*formWeakReference*\n}\n' \
	  > $(VALGRIND_DIR)/swift.supp
	MO_VALGRIND=1 MO_VALGRIND_LOG=$(VALGRIND_DIR)/memcheck.log MO_VALGRIND_SUPP=$(VALGRIND_DIR)/swift.supp \
	  MO_LOAD_WORKERS=5 MO_LOAD_CLIENTS=100 MO_LOAD_ROUNDS=3 \
	  $(PYTHON) -m pytest -v -s Tests/integration/test_load.py -k valgrind
