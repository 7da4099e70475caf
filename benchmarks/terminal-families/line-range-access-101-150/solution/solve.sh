#!/bin/bash
set -e
sed -n '101,150p' /var/log/web/access.log > /root/slice.log
