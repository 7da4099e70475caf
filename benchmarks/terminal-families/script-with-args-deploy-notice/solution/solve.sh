#!/bin/bash
set -e
cat > /app/deploy-notice.sh <<'EOF'
#!/bin/bash
echo "Deploying to $1..."
EOF
chmod +x /app/deploy-notice.sh
