#!/bin/bash
set -e
cd /app
mkdir -p /root
cat > /root/donations.csv <<'EOF'
donor,note,amount_eur,campaign
Ben Nakamura,"monthly, via bank",250,winter-2023
Jun Haddad,"matched, employer",25,winter-2023
Lena Nakamura,"in memory of, Lund family",50,spring-2024
Elif Kowalski,gift aid,100,spring-2024
Chloe Kowalski,gift aid,10,winter-2023
Lena Lund,gift aid,20,spring-2024
Goran Ortiz,gift aid,25,winter-2023
Ben Moreau,"monthly, via bank",5,spring-2024
Lena Okafor,gift aid,5,spring-2024
Ana Haddad,gift aid,250,winter-2023
Elif Okafor,"in memory of, Lund family",100,winter-2023
Kofi Berg,"in memory of, Lund family",20,winter-2023
Ana Lund,"in memory of, Lund family",20,spring-2024
Chloe Okafor,one-off,25,spring-2024
Lena Ortiz,"in memory of, Lund family",5,winter-2023
Farah Ortiz,"in memory of, Lund family",50,spring-2024
Ben Nakamura,"matched, employer",100,winter-2023
Jun Haddad,"matched, employer",5,winter-2023
Dmitri Okafor,"monthly, via bank",5,spring-2024
Goran Moreau,gift aid,20,spring-2024
Jun Lund,one-off,25,winter-2023
Ben Nakamura,"matched, employer",25,winter-2023
Goran Novak,"in memory of, Lund family",250,winter-2023
Ivo Moreau,"matched, employer",25,winter-2023
Kofi Novak,"matched, employer",250,winter-2023
Elif Nakamura,"matched, employer",250,winter-2023
EOF
