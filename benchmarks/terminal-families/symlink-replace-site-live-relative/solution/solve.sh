#!/bin/bash
set -e
ln -sfn releases/2024-06-14 /opt/site/live
