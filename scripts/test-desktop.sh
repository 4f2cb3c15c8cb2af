#!/usr/bin/env bash
# make test-desktop: the cgroup v2 desktop path, run for real.
#
# Boots a Debian 12 guest under QEMU (KVM where /dev/kvm works, software
# emulation otherwise) with systemd, a non-root user whose systemd user
# manager runs (lingering), bubblewrap and python3, and the static kidcoder.
# The user, from inside its user manager as a desktop app would be, runs
# scripts/test-desktop-guest.sh: selftest, hello, the memory and fork
# bombs, nothing left behind, and the cost of systemd-run per run.
#
# The guest image depends only on this file: it is built once (needs root,
# mmdebstrap, qemu-system-x86, e2fsprogs) and kept under build/desktop/
# keyed by this file's hash. Each run boots a throwaway overlay of it with
# a second disk carrying kidcoder, scripts/test-desktop-run.go and the checks.
#
#   scripts/test-desktop.sh [--full]   --full also runs the sandbox's whole
#                                      Go test suite as the user in the guest
set -euo pipefail

cd "$(dirname "$0")/.."
full=0
[ "${1:-}" = "--full" ] && full=1

need() { command -v "$1" >/dev/null || { echo "test-desktop: $1 is missing (apt-get install $2)" >&2; exit 2; }; }
need qemu-system-x86_64 qemu-system-x86
need qemu-img qemu-utils
need mmdebstrap mmdebstrap
need mke2fs e2fsprogs
[ -x build/bin/kidcoder ] || { echo "test-desktop: build/bin/kidcoder is missing (make cli)" >&2; exit 2; }

top=build/desktop
key=$(sha256sum "$0" | cut -c1-16)
img=$top/image-$key
secs() { echo $(( $(date +%s) - $1 )); }

# The guest image. Everything in it comes from Debian's packages.
if [ ! -f "$img/root.img" ]; then
	[ "$(id -u)" = 0 ] || { echo "test-desktop: building the guest image needs root" >&2; exit 2; }
	t0=$(date +%s)
	rm -rf "$top"/image-* "$top/tree"
	mkdir -p "$top"
	tree=$top/tree
	mmdebstrap --variant=minbase \
		--include=systemd,systemd-sysv,dbus,dbus-user-session,libpam-systemd,passwd,procps,util-linux,bubblewrap,python3,linux-image-amd64,initramfs-tools \
		--customize-hook='chroot "$1" useradd -m -u 1000 -s /bin/bash kid' \
		--customize-hook='mkdir -p "$1/var/lib/systemd/linger" && touch "$1/var/lib/systemd/linger/kid"' \
		--customize-hook='echo kc-desktop > "$1/etc/hostname"' \
		--customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
		--customize-hook='passwd --root "$1" -d root' \
		--customize-hook='cat > "$1/etc/systemd/system/kc-desktop-test.service" <<-EOF
			[Unit]
			Description=Kid Coder desktop checks
			After=multi-user.target user@1000.service systemd-logind.service
			Wants=user@1000.service
			[Service]
			Type=oneshot
			StandardOutput=tty
			StandardError=tty
			TTYPath=/dev/ttyS0
			ExecStart=/bin/sh -c "mkdir -p /opt/kc && mount -o ro /dev/vdb /opt/kc && exec /bin/bash /opt/kc/test-desktop-guest.sh"
			ExecStopPost=/bin/systemctl --no-block poweroff
			[Install]
			WantedBy=multi-user.target
			EOF' \
		--customize-hook='chroot "$1" systemctl enable kc-desktop-test.service' \
		--customize-hook='chroot "$1" systemctl mask getty@tty1.service serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service' \
		bookworm "$tree"
	mkdir -p "$img.tmp"
	cp -L "$tree/vmlinuz" "$img.tmp/vmlinuz"
	cp -L "$tree/initrd.img" "$img.tmp/initrd.img"
	mke2fs -q -t ext4 -L root -d "$tree" "$img.tmp/root.img" 3G
	rm -rf "$tree"
	mv "$img.tmp" "$img"
	echo "test-desktop: guest image built in $(secs "$t0") s ($img)"
fi

# The payload: what is tested, fresh every run.
run=$top/run
rm -rf "$run"
mkdir -p "$run/payload/sandbox"
cp build/bin/kidcoder "$run/payload/kidcoder"
CGO_ENABLED=0 go build -o "$run/payload/test-desktop-run" scripts/test-desktop-run.go
cp -r sandbox/testdata "$run/payload/sandbox/testdata"
[ "$full" = 0 ] || CGO_ENABLED=0 go test -c -o "$run/payload/sandbox/sandbox.test" ./sandbox/
cp scripts/test-desktop-guest.sh "$run/payload/"
echo "$full" > "$run/payload/full"
mke2fs -q -t ext4 -d "$run/payload" "$run/payload.img" 256M
qemu-img create -q -f qcow2 -F raw -b "$(realpath "$img/root.img")" "$run/root.qcow2"

# KVM where the processor offers it; /dev/kvm alone is not enough (nested
# guests may have the device and hang). Otherwise software emulation.
accel="${KIDCODER_DESKTOP_ACCEL:-}"
if [ -z "$accel" ]; then
	accel=tcg
	[ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo && accel=kvm
fi
cpu=max
[ "$accel" = kvm ] && cpu=host
echo "test-desktop: booting the guest ($accel)"
t0=$(date +%s)
status=0
timeout 1500 qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp 2 -m 2048 \
	-display none -monitor none -no-reboot \
	-serial "file:$run/serial.log" \
	-kernel "$img/vmlinuz" -initrd "$img/initrd.img" \
	-append "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0 panic=-1" \
	-drive "file=$run/root.qcow2,format=qcow2,if=virtio" \
	-drive "file=$run/payload.img,format=raw,if=virtio,readonly=on" \
	-nic none || status=$?
echo "test-desktop: the guest ran for $(secs "$t0") s"
grep -a '^KC' "$run/serial.log" | sed 's/\r$//' || true
if [ "$status" != 0 ]; then
	echo "test-desktop: qemu ended with $status (the whole console is in $run/serial.log)" >&2
	exit 1
fi
grep -aq '^KC RESULT PASS' "$run/serial.log" || { echo "test-desktop: FAILED (console: $run/serial.log)" >&2; exit 1; }
echo "test-desktop: passed"
