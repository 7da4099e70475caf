#!/bin/bash
sqlite3 -csv -header /app/sales.db "
SELECT r.name AS region,
       COUNT(DISTINCT o.id) AS orders,
       printf('%.2f', COALESCE(SUM(i.qty * i.unit_price_cents), 0) / 100.0) AS revenue
FROM orders o
JOIN customers c ON c.id = o.customer_id
JOIN regions r ON r.id = c.region_id
LEFT JOIN order_items i ON i.order_id = o.id
WHERE o.order_date >= '2023-01-01' AND o.order_date < '2024-01-01'
  AND o.status IN ('paid', 'shipped')
GROUP BY r.id
ORDER BY COALESCE(SUM(i.qty * i.unit_price_cents), 0) DESC;" | tr -d '\r' > /app/region_report.csv
