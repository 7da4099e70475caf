#!/bin/bash
set -e
cat > /app/bin/greet.sh <<'EOF'
#!/bin/bash
echo "Hello, $1!"
EOF
chmod +x /app/bin/greet.sh
