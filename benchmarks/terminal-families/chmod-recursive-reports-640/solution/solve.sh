#!/bin/bash
set -e
find /srv/reports -type f -exec chmod 640 {} +
