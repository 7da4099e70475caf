#!/bin/bash
set -e
cd /app
mkdir -p /opt/scripts
