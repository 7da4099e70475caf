#!/bin/bash
set -e
tar -czf /root/html-site.tar.gz -C /var/www html
