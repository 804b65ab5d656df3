#!/bin/sh
# /init of the initramfs that Tests/kernel/systemd/run.py builds (busybox sh): the host's root
# file system, shared read-only over 9p, becomes the lower layer of an overlay whose upper layer
# is a tmpfs (so `make install` and systemd-sysusers write into the VM only); the results
# directory is shared read-write at the same path; the test units from it go into /etc; then
# systemd runs as PID 1 (switch_root) and boots into motion-orientation-vmtest.target.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec >/dev/console 2>&1 </dev/console

fail() {
    echo "mo-vm: FAILED in the initramfs: $*"
    poweroff -f
}

echo "mo-vm: initramfs"
for module in $(cat /modules/order); do
    insmod "/modules/$module" || fail "insmod $module"
done

results=
for arg in $(cat /proc/cmdline); do
    case "$arg" in
    mo.results=*) results=${arg#mo.results=} ;;
    esac
done
[ -n "$results" ] || fail "no mo.results= on the kernel command line"

mkdir -p /lower /upper /newroot
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000,cache=loose hostroot /lower ||
    fail "mount the host root (9p)"
mount -t tmpfs -o mode=0755 upper /upper || fail "mount the tmpfs"
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay /newroot ||
    fail "mount the overlay"
# The host's /tmp and /var/tmp stay out: systemd-tmpfiles would empty them at boot, a
# whiteout for every file over 9p.
mount -t tmpfs -o mode=1777 tmp /newroot/tmp || fail "mount /tmp"
mount -t tmpfs -o mode=1777 vartmp /newroot/var/tmp || fail "mount /var/tmp"
mkdir -p "/newroot$results"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results "/newroot$results" ||
    fail "mount the results directory (9p)"

# The host may be a container: its marker would make systemd take the VM for one (and ignore
# the kernel command line).
rm -f /newroot/.dockerenv /newroot/run/.containerenv

units=/newroot/etc/systemd/system
cp "/newroot$results"/units/* "$units/" || fail "copy the test units"
# Units of the host that a test boot does not want (no network time, no AppArmor profiles to
# load under TCG, no timers that might catch up at boot).
for unit in $(cat "/newroot$results/masked"); do
    rm -f "$units/$unit"
    ln -s /dev/null "$units/$unit"
done

# systemd finds the API file systems mounted and keeps them.
for api in proc sys dev; do
    mount --move /$api /newroot/$api || fail "move /$api"
done
echo "mo-vm: starting systemd"
exec switch_root /newroot /lib/systemd/systemd
