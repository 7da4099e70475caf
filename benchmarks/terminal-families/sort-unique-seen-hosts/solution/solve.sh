#!/bin/bash
set -e
sort -u /srv/inventory/hosts_seen.txt > /srv/inventory/hosts_unique.txt
