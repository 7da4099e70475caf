#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/build/build.log)"
cat > /app/build/build.log <<'__END_OF_FILE__'
[1/6] Configuring project (Release)
-- Found OpenSSL 3.0.11
-- fatal warnings disabled (-Wno-error)
[2/6] Compiling src/main.c
[3/6] Compiling src/net.c
src/net.c:88: FATAL: undefined reference to 'tls_init'
[4/6] Compiling src/signals.c
src/signals.c:12: note: Fatal signals are handled in crash.c
[5/6] Linking app
ld: FATAL error: 1 unresolved symbol
[6/6] Build Fatal: stopping after errors
Build finished with status: fatal
__END_OF_FILE__
mkdir -p "$(dirname /app/build/fatal.txt)"
