#!/bin/bash
set -e
cd /srv/git/billing
git add -- billing/vat.py
git commit -q -m 'Use the 21 percent VAT rate'
