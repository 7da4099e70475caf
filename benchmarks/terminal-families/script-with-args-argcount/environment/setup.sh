#!/bin/bash
set -e
cd /app
mkdir -p /usr/local/bin
