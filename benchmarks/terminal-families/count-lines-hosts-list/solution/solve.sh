#!/bin/bash
set -e
wc -l < /etc/inventory/hosts.list > /tmp/host_count.txt
