#!/bin/bash
set -e
cat > /home/dev/bin/log.sh <<'EOF'
#!/bin/bash
echo "[$1] $2"
EOF
chmod +x /home/dev/bin/log.sh
