#!/bin/bash
set -e
cd /app
mkdir -p /root
cat > /root/shipments.csv <<'EOF'
shipment,origin_city,destination_city,weight_kg
SH70000,Rotterdam,Riga,495
SH70001,Rotterdam,Lima,392
SH70002,Rotterdam,Tunis,493
SH70003,Rotterdam,Sao Paulo,688
SH70004,Rotterdam,Riga,534
SH70005,Hamburg,Oslo,804
SH70006,Hamburg,Perth,594
SH70007,Rotterdam,Cape Town,422
SH70008,Rotterdam,Hanoi,709
SH70009,Hamburg,Cape Town,643
SH70010,Rotterdam,Lima,339
SH70011,Rotterdam,Lima,452
SH70012,Hamburg,Perth,247
SH70013,Hamburg,New York,750
SH70014,Rotterdam,Quebec City,287
SH70015,Rotterdam,Oslo,555
SH70016,Hamburg,New York,635
SH70017,Rotterdam,Perth,513
SH70018,Rotterdam,Sao Paulo,466
SH70019,Hamburg,Quebec City,376
SH70020,Rotterdam,Quebec City,856
SH70021,Hamburg,Oslo,801
SH70022,Rotterdam,New York,621
SH70023,Hamburg,Lima,794
SH70024,Rotterdam,Lima,127
SH70025,Rotterdam,Sao Paulo,416
SH70026,Hamburg,Sao Paulo,624
SH70027,Rotterdam,Riga,170
SH70028,Hamburg,Riga,64
SH70029,Rotterdam,Perth,32
SH70030,Rotterdam,Sao Paulo,717
SH70031,Hamburg,Quebec City,67
SH70032,Hamburg,Riga,744
SH70033,Hamburg,Lima,462
SH70034,Hamburg,Sao Paulo,75
SH70035,Hamburg,Tunis,99
SH70036,Rotterdam,Cape Town,157
SH70037,Rotterdam,Sao Paulo,356
SH70038,Hamburg,Cape Town,207
SH70039,Rotterdam,New York,180
SH70040,Rotterdam,Hanoi,107
SH70041,Hamburg,Oslo,162
EOF
