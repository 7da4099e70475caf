#!/bin/bash
set -e
chmod -R 750 /opt/deploy/hooks
