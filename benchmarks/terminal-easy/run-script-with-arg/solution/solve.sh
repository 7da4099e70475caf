#!/bin/bash
set -e
/app/deploy.sh staging
