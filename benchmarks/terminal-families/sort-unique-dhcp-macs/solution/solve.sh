#!/bin/bash
set -e
sort -u /srv/dhcp/seen_macs.txt > /srv/dhcp/macs.txt
