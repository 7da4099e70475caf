#!/bin/bash
set -e
cat > /app/scripts/setting.sh <<'EOF'
#!/bin/bash
echo "$1=$2"
EOF
chmod +x /app/scripts/setting.sh
