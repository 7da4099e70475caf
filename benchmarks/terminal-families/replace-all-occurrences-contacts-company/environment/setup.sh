#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/crm/contacts.csv)"
cat > /data/crm/contacts.csv <<'__END_OF_FILE__'
name,company,email,notes
Ann Lee,Acme,ann.lee@example.org,met at the Acme booth; Acme renewal due in May
Bo Chen,Initech,bo.chen@example.org,prefers phone
Cy Diaz,Acme,cy.diaz@example.net,Acme and Acme Labs share one account
Di Park,Umbrella,di.park@example.com,former Acme employee
__END_OF_FILE__
