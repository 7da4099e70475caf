#!/bin/bash
set -e
cd /app
mkdir -p /srv/shop
cat > /srv/shop/orders.csv <<'EOF'
id,customer,address,quantity,unit_price
1,"Moreau, Dmitri",57 Station Square,10,40
2,"Haddad, Kofi",56 Park Row,11,40
3,"Nakamura, Dmitri",50 Harbor Road,7,40
4,"Silva, Kofi",79 Harbor Road,6,12
5,"Okafor, Lena",89 Harbor Road,3,5
6,"Nakamura, Dmitri",16 Mill Lane,12,5
7,"Novak, Jun",14 Elm Street,7,12
8,"Ortiz, Goran",67 Harbor Road,5,12
9,"Ortiz, Dmitri",58 King Avenue,8,99
10,"Berg, Ana",44 Harbor Road,8,5
11,"Haddad, Ivo",92 Harbor Road,11,5
12,"Nakamura, Ana",81 Park Row,2,5
13,"Berg, Lena",3 Mill Lane,8,99
14,"Novak, Goran",91 King Avenue,12,99
15,"Kowalski, Ivo",99 King Avenue,3,12
16,"Okafor, Chloe",73 Harbor Road,3,12
17,"Lund, Hana",8 Station Square,10,5
18,"Kowalski, Lena",13 Park Row,9,5
19,"Lund, Elif",60 Elm Street,1,5
20,"Nakamura, Ivo",94 Harbor Road,6,99
21,"Moreau, Elif",80 Station Square,7,12
22,"Okafor, Kofi",63 Park Row,2,99
23,"Kowalski, Lena",62 Harbor Road,3,40
24,"Haddad, Jun",93 Mill Lane,2,12
25,"Moreau, Lena",74 Elm Street,11,99
EOF
