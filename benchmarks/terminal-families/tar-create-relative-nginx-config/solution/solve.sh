#!/bin/bash
set -e
tar -czf /app/nginx-config.tar.gz -C /app/config nginx
