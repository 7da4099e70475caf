#!/bin/bash
set -e
cd /app
git config --global user.name 'Ravi Patel'
git config --global user.email ravi@billing.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-04-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Ravi Patel' -c user.email=ravi@billing.example commit -q "$@"
}
mkdir -p /srv/git/billing
git init -q /srv/git/billing
cd /srv/git/billing
printf '%s' '# Billing

Invoices and payments.
' > README.md
mkdir -p billing
printf '%s' '' > billing/__init__.py
mkdir -p billing
printf '%s' 'def invoice_total(lines):
    return sum(line['"'"'amount'"'"'] for line in lines)
' > billing/invoice.py
git add -A && commit -m 'Initial import of billing service'
mkdir -p billing
printf '%s' 'RATE = 0.20


def with_vat(amount):
    return amount * (1 + RATE)
' > billing/vat.py
git add -A && commit -m 'Add VAT calculation'
mkdir -p billing
printf '%s' 'def invoice_total(lines):
    if not lines:
        return 0
    return sum(line['"'"'amount'"'"'] for line in lines)
' > billing/invoice.py
git add -A && commit -m 'Handle zero-amount invoices'
printf '%s' '2.4.0
' > VERSION
git add -A && commit -m 'Bump version to 2.4.0'
mkdir -p /srv/git
