#!/bin/bash
set -e
mkdir -p /app/tests/tmp/unpacked
tar -xzf /app/tests/fixtures.tar.gz -C /app/tests/tmp/unpacked
