#!/bin/bash
set -e
mkdir -p /srv/restore/etc-snapshot
tar -xJf /srv/backups/etc-2024-06-01.tar.xz -C /srv/restore/etc-snapshot
