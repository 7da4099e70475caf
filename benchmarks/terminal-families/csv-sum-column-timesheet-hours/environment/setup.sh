#!/bin/bash
set -e
cd /app
mkdir -p /home/pm
cat > /home/pm/timesheet.csv <<'EOF'
date,employee,hours,project,rate
2024-04-01,Ben,4,atlas,45
2024-04-01,Ben,3,atlas,60
2024-04-01,Lena,9,beacon,45
2024-04-02,Goran,2,beacon,45
2024-04-02,Lena,6,beacon,75
2024-04-02,Elif,7,atlas,45
2024-04-03,Hana,5,beacon,60
2024-04-03,Goran,1,atlas,45
2024-04-03,Elif,5,atlas,60
2024-04-04,Dmitri,9,beacon,75
2024-04-04,Goran,5,atlas,60
2024-04-04,Farah,8,atlas,45
2024-04-05,Dmitri,1,atlas,45
2024-04-05,Goran,4,atlas,60
2024-04-05,Kofi,5,beacon,60
2024-04-06,Ben,2,beacon,45
2024-04-06,Dmitri,2,atlas,60
2024-04-06,Goran,9,atlas,45
2024-04-07,Jun,4,beacon,75
2024-04-07,Dmitri,6,beacon,75
2024-04-07,Goran,3,beacon,45
2024-04-08,Goran,1,atlas,75
2024-04-08,Farah,8,atlas,45
2024-04-08,Ivo,3,atlas,75
2024-04-09,Dmitri,5,atlas,60
2024-04-09,Jun,9,beacon,75
2024-04-09,Ben,1,beacon,60
2024-04-10,Farah,2,beacon,60
2024-04-10,Lena,7,atlas,45
2024-04-10,Chloe,5,beacon,45
2024-04-11,Goran,4,beacon,60
2024-04-11,Jun,6,atlas,60
2024-04-11,Ben,1,beacon,75
2024-04-12,Farah,7,atlas,45
2024-04-12,Ana,2,beacon,60
2024-04-12,Dmitri,1,atlas,75
EOF
