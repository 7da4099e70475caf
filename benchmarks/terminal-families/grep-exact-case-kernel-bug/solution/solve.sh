#!/bin/bash
set -e
grep -F 'BUG' /var/log/kern.log > /root/kernel_bugs.txt
