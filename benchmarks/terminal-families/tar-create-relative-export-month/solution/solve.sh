#!/bin/bash
set -e
tar -czf /data/exports-2024-06.tar.gz -C /data/exports 2024-06
