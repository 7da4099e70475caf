#!/bin/bash
set -e
ln -sfn /etc/myproxy/profiles/production /etc/myproxy/active
