#!/bin/bash
set -e
sed -i 's/Acme/Globex/g' /data/crm/contacts.csv
