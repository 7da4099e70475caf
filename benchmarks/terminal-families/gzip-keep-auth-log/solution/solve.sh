#!/bin/bash
set -e
gzip -k /root/audit/auth.log
