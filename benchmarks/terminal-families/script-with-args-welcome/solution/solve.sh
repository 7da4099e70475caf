#!/bin/bash
set -e
cat > /srv/tools/welcome.sh <<'EOF'
#!/bin/bash
echo "Welcome back, $1! You have $2 new messages."
EOF
chmod +x /srv/tools/welcome.sh
