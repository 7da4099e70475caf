#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/orders.csv <<'EOF'
order_id,customer,product,qty
5000,Alan Turing,toaster,2
5001,Linus Torvalds,lamp,3
5002,Grace Hopper,mixer,2
5003,Ken Thompson,scale,3
5004,Grace Hopper,iron,2
5005,Alan Turing,lamp,1
5006,Linus Torvalds,toaster,3
5007,Ada Lovelace,blender,2
5008,Ken Thompson,mixer,4
5009,Linus Torvalds,heater,1
5010,Grace Hopper,blender,4
5011,Alan Turing,mixer,1
5012,Barbara Liskov,mixer,3
5013,Ada Lovelace,fan,5
5014,Alan Turing,kettle,1
5015,Ken Thompson,heater,1
5016,Linus Torvalds,iron,2
5017,Ada Lovelace,heater,3
5018,Barbara Liskov,lamp,1
5019,Ken Thompson,scale,2
5020,Linus Torvalds,lamp,3
5021,Linus Torvalds,heater,2
5022,Alan Turing,kettle,4
5023,Alan Turing,mixer,4
5024,Grace Hopper,juicer,4
5025,Grace Hopper,mixer,1
5026,Ada Lovelace,mixer,1
5027,Alan Turing,fan,2
5028,Linus Torvalds,iron,1
5029,Ken Thompson,kettle,4
EOF
