#!/bin/bash
set -e
find /opt/fixtures -type f -name '*.json' | sort > /opt/json_fixtures.txt
