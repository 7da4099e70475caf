#!/bin/bash
set -e
/app/build.sh
