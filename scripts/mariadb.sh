#!/usr/bin/env bash
# A throw-away MariaDB server for the test suite: own data dir, loopback port, no systemd.
#   scripts/mariadb.sh start DIR PORT [OPTION…]  → initialises DIR, starts mariadbd (with any further mariadbd
#                                                 options, e.g. --require-secure-transport=ON), creates user
#                                                 pms/pms, prints its PID
#   scripts/mariadb.sh stop DIR         → stops the server whose PID is in DIR/mariadbd.pid
set -euo pipefail

cmd=${1:?start|stop}
dir=${2:?data directory}

case "$cmd" in
  start)
    port=${3:?port}
    shift 3
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ ! -d "$dir/data/mysql" ]; then
      mariadb-install-db --no-defaults --user=root --datadir="$dir/data" --auth-root-authentication-method=socket \
        --skip-test-db > "$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
    fi
    mariadbd --no-defaults --user=root --datadir="$dir/data" --socket="$dir/mariadb.sock" --port="$port" \
      --bind-address=127.0.0.1 --pid-file="$dir/mariadbd.pid" --log-error="$dir/error.log" \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_bin --default-time-zone=+00:00 \
      --innodb-buffer-pool-size=128M --innodb-flush-log-at-trx-commit=2 --skip-log-bin "$@" > /dev/null 2>&1 &
    echo $! > "$dir/mariadbd.launch.pid"
    for _ in $(seq 1 120); do
      if mariadb --no-defaults --socket="$dir/mariadb.sock" -uroot -e 'SELECT 1' > /dev/null 2>&1; then break; fi
      if ! kill -0 "$(cat "$dir/mariadbd.launch.pid")" 2> /dev/null; then cat "$dir/error.log" >&2; exit 1; fi
      sleep 0.5
    done
    mariadb --no-defaults --socket="$dir/mariadb.sock" -uroot -e "
      CREATE USER IF NOT EXISTS 'pms'@'127.0.0.1' IDENTIFIED BY 'pms';
      GRANT ALL PRIVILEGES ON *.* TO 'pms'@'127.0.0.1';
      FLUSH PRIVILEGES;"
    cat "$dir/mariadbd.launch.pid"
    ;;
  stop)
    pid=$(cat "$dir/mariadbd.launch.pid" 2> /dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
      kill "$pid"
      for _ in $(seq 1 60); do kill -0 "$pid" 2> /dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2> /dev/null || true
    fi
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
