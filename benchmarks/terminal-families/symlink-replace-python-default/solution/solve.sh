#!/bin/bash
set -e
ln -sfn /opt/python/3.12 /opt/python/default
