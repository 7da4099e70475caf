#!/bin/bash
jq '[ .warehouses[] as $w | $w.bins[].items[] | {sku, qty: (.qty // 0), wh: $w.id} ]
    | group_by(.sku)
    | map({sku: .[0].sku,
           total_qty: (map(.qty) | add),
           warehouses: (map(select(.qty > 0) | .wh) | unique)})
    | map(select(.total_qty > 0))
    | sort_by(.sku)' /app/inventory.json > /app/stock.json
