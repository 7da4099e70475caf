#!/bin/bash
set -e
cat > /usr/local/bin/argcount.sh <<'EOF'
#!/bin/bash
echo "count: $#"
EOF
chmod +x /usr/local/bin/argcount.sh
