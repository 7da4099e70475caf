#!/bin/bash
set -e
sed -i 's/Quarry/Pebble/g' /home/dev/docs/README.md
