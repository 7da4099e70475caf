#!/bin/bash
set -e
cat > /app/deploy.sh <<'EOF'
#!/bin/bash
echo "target=$1" > /app/deploy.env
EOF
chmod 755 /app/deploy.sh
