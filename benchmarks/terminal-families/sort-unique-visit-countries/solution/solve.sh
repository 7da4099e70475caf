#!/bin/bash
set -e
sort -u /data/geo/visit_countries.txt > /data/geo/countries.txt
