#!/usr/bin/env bash
# A throw-away three-node MariaDB Galera cluster for the test suite: Debian's galera-4 and mariadb-server, no
# systemd, loopback ports, one data directory per node, every process stopped by its PID.
#   scripts/galera.sh start DIR BASE   → three nodes; node N (1–3) listens for SQL on BASE+4(N-1) and uses the three
#                                        ports after it for group communication, IST and SST (rsync). Node 1
#                                        bootstraps the cluster, nodes 2 and 3 join it by SST; user pms/pms. Returns
#                                        once the cluster has three members, all Synced; prints the SQL ports.
#   scripts/galera.sh stop DIR         → stops every node (by PID, the last bootstrapped first)
#   scripts/galera.sh stop-node DIR N  → stops node N alone (clean shutdown: it rejoins by IST)
#   scripts/galera.sh start-node DIR N → starts node N again; returns once the cluster has three Synced members
#   scripts/galera.sh wait DIR         → returns once the cluster has three Synced members
# Works as any user (the servers run as that user), or as root (they run as GALERA_USER, by default mysql, which
# must be able to reach DIR).
set -euo pipefail
export PATH="$PATH:/usr/sbin"

cmd=${1:?start|stop|stop-node|start-node|wait}
dir=${2:?data directory}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
provider=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
os_user=$(id -un)
# rsync's SST daemon, started as root, would write as nobody: as root the servers run as an unprivileged user.
run_user=$os_user
if [ "$(id -u)" = 0 ]; then run_user=${GALERA_USER:-mysql}; fi

base_of() { cat "$dir/base-port"; }
sql_port() { echo $(($(base_of) + 4 * ($1 - 1))); }
node_dir() { echo "$dir/node$1"; }
# The unix socket is root's way in (install-db's socket authentication), whoever runs this script.
as_admin() { local n=$1; shift; mariadb --no-defaults --socket="$(node_dir "$n")/mariadb.sock" -u"$os_user" "$@"; }
status() { echo "(SELECT variable_value FROM information_schema.global_status WHERE variable_name = '$1')"; }
# "3 Synced": the members node N sees, and its own state.
status_of() { as_admin "$1" -N -e "SELECT CONCAT($(status WSREP_CLUSTER_SIZE), ' ', $(status WSREP_LOCAL_STATE_COMMENT))" 2> /dev/null || true; }

write_config() {
  local n=$1 base port gcomm ist sst peers=""
  base=$(base_of)
  port=$(sql_port "$n"); gcomm=$((port + 1)); ist=$((port + 2)); sst=$((port + 3))
  for m in 1 2 3; do peers="$peers${peers:+,}127.0.0.1:$(($(sql_port "$m") + 1))"; done
  mkdir -p "$(node_dir "$n")/data"
  cat > "$(node_dir "$n")/my.cnf" << EOF
[mysqld]
user=$run_user
datadir=$(node_dir "$n")/data
socket=$(node_dir "$n")/mariadb.sock
pid-file=$(node_dir "$n")/mariadbd.pid
log-error=$(node_dir "$n")/error.log
port=$port
bind-address=127.0.0.1
character-set-server=utf8mb4
collation-server=utf8mb4_bin
default-time-zone=+00:00
innodb-buffer-pool-size=128M
innodb-flush-log-at-trx-commit=2
innodb-log-file-size=48M
# What Galera needs of every node (docs/operations.md, "MariaDB Galera").
binlog_format=ROW
innodb_autoinc_lock_mode=2
default_storage_engine=InnoDB
wsrep_on=ON
wsrep_provider=$provider
wsrep_cluster_name=pms-test-$base
wsrep_cluster_address=gcomm://$peers
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$gcomm
wsrep_node_incoming_address=127.0.0.1:$port
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$sst
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$gcomm;ist.recv_addr=127.0.0.1:$ist;gcache.size=64M;evs.inactive_timeout=PT6S;evs.suspect_timeout=PT3S"
EOF
}

launch() {
  local n=$1 d; shift
  d=$(node_dir "$n")
  mariadbd --defaults-file="$d/my.cnf" "$@" > "$d/stdout.log" 2>&1 &
  echo $! > "$d/mariadbd.launch.pid"
}

# Node N answers SQL, or the script ends with its log.
wait_sql() {
  local n=$1 d; d=$(node_dir "$n")
  for _ in $(seq 1 240); do
    if as_admin "$n" -e 'SELECT 1' > /dev/null 2>&1; then return 0; fi
    if ! kill -0 "$(cat "$d/mariadbd.launch.pid")" 2> /dev/null; then tail -50 "$d/error.log" >&2; exit 1; fi
    sleep 0.5
  done
  echo "node $n did not answer within 120 s" >&2; tail -50 "$d/error.log" >&2; exit 1
}

# Every running node sees WANT members and is Synced.
wait_synced() {
  local want=$1 nodes=("${@:2}") ok
  for _ in $(seq 1 240); do
    ok=1
    for n in "${nodes[@]}"; do [ "$(status_of "$n")" = "$want Synced" ] || ok=0; done
    [ $ok = 1 ] && return 0
    sleep 0.5
  done
  for n in "${nodes[@]}"; do echo "node $n: $(status_of "$n")" >&2; tail -30 "$(node_dir "$n")/error.log" >&2; done
  exit 1
}

stop_node() {
  local pid; pid=$(cat "$(node_dir "$1")/mariadbd.launch.pid" 2> /dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
    kill "$pid"
    for _ in $(seq 1 120); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.5; done
    kill -9 "$pid" 2> /dev/null || true
  fi
}

case "$cmd" in
  start)
    echo "${3:?base port}" > "$dir/base-port"
    for n in 1 2 3; do write_config "$n"; done
    if [ "$run_user" != "$os_user" ]; then chmod 755 "$dir"; chown -R "$run_user" "$dir"; fi
    if [ ! -d "$(node_dir 1)/data/mysql" ]; then
      mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --auth-root-authentication-method=socket --skip-test-db \
        --wsrep-on=OFF > "$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
    fi
    launch 1 --wsrep-new-cluster
    wait_sql 1
    wait_synced 1 1
    # Replicated to the joiners by their state transfer.
    as_admin 1 -e "
      CREATE USER IF NOT EXISTS 'pms'@'127.0.0.1' IDENTIFIED BY 'pms';
      GRANT ALL PRIVILEGES ON *.* TO 'pms'@'127.0.0.1';"
    # One joiner at a time: a node is the donor of one state transfer at once.
    launch 2; wait_sql 2; wait_synced 2 1 2
    launch 3; wait_sql 3; wait_synced 3 1 2 3
    echo "$(sql_port 1) $(sql_port 2) $(sql_port 3)"
    ;;
  stop)
    for n in 3 2 1; do stop_node "$n"; done
    ;;
  stop-node)
    stop_node "${3:?node 1-3}"
    ;;
  start-node)
    n=${3:?node 1-3}
    launch "$n"; wait_sql "$n"; wait_synced 3 1 2 3
    ;;
  wait)
    wait_synced 3 1 2 3
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
