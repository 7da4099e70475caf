#!/bin/bash
set -e
tar -czf /opt/service/migrations.tgz -C /opt/service/db migrations
