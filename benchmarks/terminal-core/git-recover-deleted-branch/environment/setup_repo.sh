#!/bin/bash
set -e
export GIT_AUTHOR_DATE="2024-05-01T10:00:00+00:00" GIT_COMMITTER_DATE="2024-05-01T10:00:00+00:00"
mkdir -p /app/shop && cd /app/shop
git init -q -b main
cat > app.py <<'P'
def checkout(cart):
    return sum(item["price"] * item["qty"] for item in cart)
P
echo "# Shop" > README.md
git add . && git commit -q -m "Initial shop app"
git checkout -q -b feature/refunds
cat > refunds.py <<'P'
def refund(order, amount=None):
    """Refund an order fully or partially."""
    total = order["total"]
    return total if amount is None else min(amount, total)
P
git add refunds.py && git commit -q -m "Add refund endpoint"
cat >> refunds.py <<'P'


def partial_refund(order, items):
    return sum(i["price"] * i["qty"] for i in items if i["sku"] in order["skus"])
P
git add refunds.py && git commit -q -m "Add partial refund support"
git checkout -q main
git checkout -q -b experiment
echo "print('debug')" > debug.py
git add debug.py && git commit -q -m "WIP: debugging output"
git checkout -q main
echo "Run with python3 app.py" >> README.md
git commit -q -am "Update README"
git branch -D feature/refunds experiment >/dev/null
