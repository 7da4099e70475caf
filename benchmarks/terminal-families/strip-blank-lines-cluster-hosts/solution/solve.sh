#!/bin/bash
set -e
grep -v '^[[:space:]]*$' /etc/hosts.d/cluster.hosts > /etc/hosts.d/cluster.compact
