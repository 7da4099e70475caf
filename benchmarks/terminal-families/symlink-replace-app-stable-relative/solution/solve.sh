#!/bin/bash
set -e
ln -sfn builds/build-131 /app/stable
