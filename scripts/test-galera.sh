#!/usr/bin/env bash
# The suite's Galera subset on a throw-away three-node MariaDB Galera cluster (scripts/galera.sh), one host per node
# where a test runs several: the Galera tests, the schema's primary keys, the two-host races (each host on its own
# node), and the audit, access and deployment files through node 1. The mariadb driver alone: what Galera changes
# is the server, and both drivers already run the whole suite on MariaDB (npm run test:mariadb).
#   npm run test:galera                  the subset
#   npm run test:galera -- <files>       these test files instead
# Needs mariadbd, mariadb-install-db, galera-4 and rsync (Debian: apt-get install mariadb-server galera-4 rsync).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin"

for tool in mariadbd mariadb-install-db mariadb rsync; do
  if ! command -v "$tool" > /dev/null; then
    echo "$tool not found: install MariaDB Galera first (Debian/Ubuntu: apt-get install mariadb-server galera-4 rsync)" >&2
    exit 1
  fi
done
[ -f "${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}" ] || { echo "galera-4 not found (apt-get install galera-4)" >&2; exit 1; }

# Twelve consecutive free loopback ports: SQL, group communication, IST and SST for each of the three nodes.
base=$(node -e "
  const net = require('node:net');
  const free = (p) => new Promise((ok) => { const s = net.createServer().once('error', () => ok(false)).listen(p, '127.0.0.1', () => s.close(() => ok(true))); });
  (async () => {
    for (;;) {
      const b = 20000 + 4 * Math.floor(Math.random() * 5000);
      let all = true;
      for (let p = b; p < b + 12 && all; p++) all = await free(p);
      if (all) { console.log(b); return; }
    }
  })();")
dir=$(mktemp -d "${TMPDIR:-/tmp}/pms-galera-XXXXXX")
stop() { scripts/galera.sh stop "$dir"; rm -rf "$dir"; }
trap stop EXIT

started=$(date +%s)
read -r p1 p2 p3 <<< "$(scripts/galera.sh start "$dir" "$base")"
url() { echo "mariadb://pms:pms@127.0.0.1:$1/"; }
echo "== MariaDB $(mariadb --no-defaults -h127.0.0.1 -P"$p1" -upms -ppms -N -e "SELECT CONCAT(VERSION(), ', Galera ', variable_value) FROM information_schema.global_status WHERE variable_name = 'WSREP_PROVIDER_VERSION'"): nodes on 127.0.0.1:$p1 $p2 $p3, Synced in $(($(date +%s) - started)) s"

export PMS_GALERA_DIR="$dir"
export PMS_GALERA_NODES="$(url "$p1") $(url "$p2") $(url "$p3")"
# Server URLs: a test puts the run's database on each (test/support/galera onRunDatabase).
export PMS_HOST_DATABASE_URLS="$(url "$p1") $(url "$p2")"
export DATABASE_URL=$(url "$p1")

if [ $# -gt 0 ]; then
  files=("$@")
else
  files=(test/integration/galera.test.ts test/integration/galera-notifications.test.ts test/integration/primary-keys.test.ts)
  for f in test/integration/two-hosts.test.ts test/integration/audit-*.test.ts test/integration/application-access.test.ts \
    test/integration/application-deployments.test.ts test/integration/grant-http-race.test.ts test/integration/grant-race.test.ts; do
    [ -f "$f" ] && files+=("$f")
  done
fi
echo "== ${#files[@]} test files on Galera through the mariadb driver (DATABASE_URL=$(url "$p1" | sed 's/:pms@/:***@/'), node 1)"
npx vitest run "${files[@]}"
