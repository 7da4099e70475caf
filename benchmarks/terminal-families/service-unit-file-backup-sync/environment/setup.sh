#!/bin/bash
set -e
cd /app
mkdir -p /app/systemd /var/lib/backup-sync
