#!/bin/bash
set -e
cd /app
mkdir -p /app
cat > /app/sales.csv <<'EOF'
order_id,customer,amount,region
1000,Farah,125,north
1001,Kofi,209,north
1002,Chloe,486,south
1003,Kofi,420,east
1004,Chloe,148,south
1005,Chloe,570,east
1006,Hana,714,north
1007,Jun,313,south
1008,Hana,195,west
1009,Ana,207,west
1010,Hana,280,north
1011,Elif,524,north
1012,Hana,880,south
1013,Farah,149,north
1014,Farah,745,north
1015,Jun,332,west
1016,Jun,352,north
1017,Dmitri,113,west
1018,Ivo,478,south
1019,Jun,243,south
1020,Lena,726,north
1021,Kofi,93,west
1022,Lena,503,north
1023,Lena,839,north
1024,Hana,376,west
1025,Kofi,507,south
1026,Hana,67,south
1027,Jun,770,east
1028,Ana,24,east
1029,Chloe,818,south
EOF
