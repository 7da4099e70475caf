#!/bin/bash
set -e
cat > /opt/scripts/tarname.sh <<'EOF'
#!/bin/bash
echo "$1-$2.tar.gz"
EOF
chmod +x /opt/scripts/tarname.sh
