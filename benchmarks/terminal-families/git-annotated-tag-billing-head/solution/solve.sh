#!/bin/bash
set -e
git -C /srv/git/payments tag -a v2.4.0 -m 'Billing 2.4.0: VAT and zero-amount invoices'
