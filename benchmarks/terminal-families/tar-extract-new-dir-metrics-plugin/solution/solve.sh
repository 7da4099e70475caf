#!/bin/bash
set -e
mkdir -p /opt/plugins/enabled
tar -xzf /opt/downloads/metrics-plugin-0.9.tgz -C /opt/plugins/enabled
