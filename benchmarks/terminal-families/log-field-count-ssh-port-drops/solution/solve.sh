#!/bin/bash
set -e
awk '$6 == "22"' /var/log/fw/drops.log | wc -l > /root/ssh_drops.txt
