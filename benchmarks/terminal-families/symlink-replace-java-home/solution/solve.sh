#!/bin/bash
set -e
ln -sfn /usr/local/lib/jdk-21 /usr/local/java
