#!/bin/bash
set -e
cd /app
mkdir -p /srv/tools
