#!/bin/bash
set -e
grep -F 'DENY' /srv/fw/firewall.log > /srv/fw/denied.log
