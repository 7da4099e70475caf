#!/bin/bash
set -e
sed -i 's/^interval *=.*/interval = 60/' /home/dev/.config/syncer/syncer.ini
