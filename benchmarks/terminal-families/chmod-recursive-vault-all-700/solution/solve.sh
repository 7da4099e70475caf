#!/bin/bash
set -e
chmod -R 700 /home/ops/vault
