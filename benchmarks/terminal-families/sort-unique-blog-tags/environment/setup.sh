#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/blog/tags.txt)"
cat > /home/blog/tags.txt <<'__END_OF_FILE__'
sqlite
docker
sqlite
security
linux
networking
linux
bash
git
security
networking
docker
bash
docker
security
python
docker
networking
linux
docker
python
linux
__END_OF_FILE__
mkdir -p "$(dirname /home/blog/tags_sorted.txt)"
