#!/bin/bash
set -e
mkdir -p /root/review/may
tar -xJf /root/archive/logs-may.tar.xz -C /root/review/may
