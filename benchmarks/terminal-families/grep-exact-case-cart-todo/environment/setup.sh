#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/shop/cart.py)"
cat > /home/dev/shop/cart.py <<'__END_OF_FILE__'
"""Shopping cart. The todo list for the next release is in docs/roadmap.md."""

import decimal


class Cart:
    def __init__(self):
        self.items = []  # TODO: use a dict keyed by sku

    def add(self, sku, qty=1):
        # todo later: validate the sku format
        self.items.append((sku, qty))

    def total(self, prices):
        # TODO handle missing prices
        return sum(decimal.Decimal(prices[s]) * q for s, q in self.items)

    def clear(self):
        # Todo: keep an undo history?
        self.items.clear()

    def discount(self, code):
        # TODO(anna): codes come from the promo service
        raise NotImplementedError("Todo")
__END_OF_FILE__
mkdir -p "$(dirname /home/dev/todo.txt)"
