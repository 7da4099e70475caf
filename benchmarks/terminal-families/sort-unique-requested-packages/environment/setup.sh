#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/deps/requested.txt)"
cat > /app/deps/requested.txt <<'__END_OF_FILE__'
urllib
numpy
flask
pytest
urllib
jinja
flask
pytest
requests
numpy
pandas
urllib
pytest
flask
pytest
jinja
pytest
jinja
click
pandas
__END_OF_FILE__
mkdir -p "$(dirname /app/deps/packages.txt)"
