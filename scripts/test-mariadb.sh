#!/usr/bin/env bash
# The suite's database tests (test/integration/) on a throw-away MariaDB server: once through the mariadb driver,
# once through mysql2.
#   npm run test:mariadb                 both drivers
#   npm run test:mariadb -- mysql        one of them (mariadb | mysql); further arguments go to vitest
# Needs mariadbd and mariadb-install-db on PATH (Debian: apt-get install mariadb-server).
set -euo pipefail
cd "$(dirname "$0")/.."

drivers=(mariadb mysql)
if [ "${1:-}" = mariadb ] || [ "${1:-}" = mysql ]; then drivers=("$1"); shift; fi

for tool in mariadbd mariadb-install-db mariadb; do
  if ! command -v "$tool" > /dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "$tool not found: install MariaDB first (Debian/Ubuntu: apt-get install mariadb-server)" >&2
    exit 1
  fi
done
export PATH="$PATH:/usr/sbin"

dir=$(mktemp -d "${TMPDIR:-/tmp}/pms-mariadb-XXXXXX")
port=${MARIADB_PORT:-$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
stop() { scripts/mariadb.sh stop "$dir"; rm -rf "$dir"; }
trap stop EXIT

pid=$(scripts/mariadb.sh start "$dir" "$port")
echo "== MariaDB $(mariadb --no-defaults -h127.0.0.1 -P"$port" -upms -ppms -N -e 'SELECT VERSION()') on 127.0.0.1:$port (pid $pid)"

# Without arguments, the files that reach a database: test/unit/ touches none, and PostgreSQL's run covers it.
[ $# -gt 0 ] || set -- test/integration/

for driver in "${drivers[@]}"; do
  echo "== npm test on MariaDB through the $driver driver (DATABASE_URL=$driver://pms:***@127.0.0.1:$port/)"
  DATABASE_URL="$driver://pms:pms@127.0.0.1:$port/" npx vitest run "$@"
done
