#!/bin/bash
set -e
groupadd -g 1800 www && useradd -u 1800 -g www -M -d /app/site -s /usr/sbin/nologin www
useradd -u 1900 -M -s /usr/sbin/nologin olddev
S=/app/site
mkdir -p $S/public/css $S/public/img "$S/public/docs 2024" $S/bin $S/config $S/uploads/tmp $S/logs
echo "<h1>hi</h1>" > $S/public/index.html
echo "body{}" > $S/public/css/site.css
printf 'PNG' > $S/public/img/logo.png
echo "report" > "$S/public/docs 2024/annual report.txt"
printf '#!/bin/sh\necho deploy\n' > $S/bin/deploy.sh
printf '#!/bin/sh\necho backup\n' > $S/bin/backup.sh
echo "helpers" > $S/bin/README
echo "DB_PASSWORD=hunter2" > $S/config/secrets.env
echo "port=8080" > $S/config/app.ini
echo "upload" > $S/uploads/tmp/file.bin
echo "log" > $S/logs/access.log
ln -s /etc/passwd $S/public/passwd-link
ln -s ../config $S/public/config-link
chown -R olddev:root $S
chown root:root $S/public/css/site.css
chmod 777 $S/public $S/uploads $S/logs
chmod 700 $S/public/img
chmod 666 $S/public/index.html $S/logs/access.log
chmod 4755 $S/public/img/logo.png
chmod 644 $S/bin/deploy.sh
chmod 600 $S/bin/backup.sh
chmod 777 $S/config/secrets.env
chmod 755 $S/config
chmod 2777 $S/uploads/tmp
chmod 600 "$S/public/docs 2024/annual report.txt"
