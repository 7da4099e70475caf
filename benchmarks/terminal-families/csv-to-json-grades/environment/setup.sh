#!/bin/bash
set -e
cd /app
mkdir -p /home/teacher
cat > /home/teacher/grades.csv <<'EOF'
student,class,score
Mia Novak,7B,88
Omar Haddad,7A,93
Lea Berg,7B,71
Ivo Silva,7A,64
Zoe Lund,7C,100
Kai Moreau,7C,79
EOF
