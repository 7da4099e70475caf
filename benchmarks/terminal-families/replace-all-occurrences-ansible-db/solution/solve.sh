#!/bin/bash
set -e
sed -i 's/db-old-01/db-new-01/g' /etc/ansible/hosts.ini
