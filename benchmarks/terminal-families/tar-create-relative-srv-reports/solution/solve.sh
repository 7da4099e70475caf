#!/bin/bash
set -e
tar -czf /tmp/reports.tar.gz -C /srv/data reports
