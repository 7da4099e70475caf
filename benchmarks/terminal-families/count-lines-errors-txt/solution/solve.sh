#!/bin/bash
set -e
wc -l < /srv/report/errors.txt > /srv/report/errors_total.txt
