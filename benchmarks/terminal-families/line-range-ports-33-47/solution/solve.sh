#!/bin/bash
set -e
sed -n '33,47p' /srv/ref/ports.txt > /srv/ref/ports_33_47.txt
