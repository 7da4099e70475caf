#!/bin/bash
set -e
mkdir -p /home/dev/preview
tar -xJf /home/dev/docs-site.tar.xz -C /home/dev/preview
