#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/kern.log)"
cat > /var/log/kern.log <<'__END_OF_FILE__'
[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)
[    0.412233] ACPI: bus type PCI registered
[    2.118001] usb 1-1: new high-speed USB device number 2, debug port enabled
[   14.520331] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   14.520340] #PF: supervisor read access in kernel mode
[   14.520388] Bug report filed as ticket 5521 by watchdog
[   30.004100] e1000e 0000:00:19.0 eth0: link up, 1000 Mbps, debugging off
[   61.870002] BUG: soft lockup - CPU#1 stuck for 22s! [kworker/1:2:311]
[   62.000000] systemd[1]: Started Debug Shell on tty9 (disabled).
[   90.100000] audit: type=1400 bug_on_warn=0
__END_OF_FILE__
mkdir -p "$(dirname /root/kernel_bugs.txt)"
