#!/bin/bash
set -e
find /etc/myservice -type f -name '*.conf' | sort > /root/conf_list.txt
