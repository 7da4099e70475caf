#!/bin/bash
set -e
cat > /app/build.sh <<'EOF'
#!/bin/bash
echo "build 7 ok" > /app/build.out
EOF
chmod 755 /app/build.sh
