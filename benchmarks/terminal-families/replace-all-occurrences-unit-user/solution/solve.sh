#!/bin/bash
set -e
sed -i 's/olduser/svc-reports/g' /etc/systemd/system/reports.service
