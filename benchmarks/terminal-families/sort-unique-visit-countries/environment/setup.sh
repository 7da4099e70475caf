#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/geo/visit_countries.txt)"
cat > /data/geo/visit_countries.txt <<'__END_OF_FILE__'
IN
BR
JP
IN
NL
ES
IN
FR
NL
DE
IN
DE
IN
ES
FR
JP
ES
US
JP
BR
ES
BR
DE
ES
__END_OF_FILE__
mkdir -p "$(dirname /data/geo/countries.txt)"
