#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/shop/orders.csv)"
cat > /data/shop/orders.csv <<'__END_OF_FILE__'
order_id,customer,amount,status,note
5001,cust105,31.92,shipped,express
5002,cust144,109.13,paid,gift wrap
5003,cust145,16.82,shipped,gift wrap
5004,cust145,61.66,paid,refunded shipping only
5005,cust111,176.52,paid,
5006,cust127,146.31,paid,refunded shipping only
5007,cust128,51.85,shipped,refunded shipping only
5008,cust109,162.02,paid,
5009,cust144,56.26,paid,
5010,cust147,199.76,shipped,refunded shipping only
5011,cust116,62.36,refunded,gift wrap
5012,cust142,30.63,shipped,partially refunded earlier
5013,cust110,45.33,shipped,express
5014,cust147,131.12,cancelled,partially refunded earlier
5015,cust117,13.60,shipped,gift wrap
5016,cust145,153.57,shipped,express
5017,cust101,103.59,paid,customer refunded via card
5018,cust141,187.07,refunded,partially refunded earlier
5019,cust140,158.66,cancelled,customer refunded via card
5020,cust141,107.80,shipped,express
5021,cust149,157.46,shipped,customer refunded via card
5022,cust113,37.61,paid,partially refunded earlier
5023,cust139,191.97,shipped,customer refunded via card
5024,cust148,144.03,shipped,express
5025,cust129,78.91,shipped,partially refunded earlier
5026,cust120,93.41,cancelled,refunded shipping only
5027,cust101,57.59,refunded,customer refunded via card
5028,cust114,49.59,paid,
5029,cust105,170.17,paid,
5030,cust115,36.68,paid,
__END_OF_FILE__
mkdir -p "$(dirname /data/shop/refunds.txt)"
