#!/bin/bash
set -e
cat > /app/tools/swap.sh <<'EOF'
#!/bin/bash
echo "$2 $1"
EOF
chmod +x /app/tools/swap.sh
