#!/usr/bin/env bash
# Starts (or stops) a throw-away Postgres cluster on 127.0.0.1 from Debian's `postgresql`
# package, for the integration suites. Prints the DATABASE_URL to use.
#   test/infra/postgres.sh start   # idempotent; cluster in $PG_DIR (default /tmp/codehealth-pg)
#   test/infra/postgres.sh stop
set -euo pipefail
PG_DIR=${PG_DIR:-/tmp/codehealth-pg}
PG_PORT=${PG_PORT:-54329}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$BIN" ]; then
  echo "postgres.sh: Debian's postgresql package is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi
# Postgres refuses to run as root: run it as the package's `postgres` user when we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-start}" in
  start)
    if [ ! -f "$PG_DIR/PG_VERSION" ]; then
      mkdir -p "$PG_DIR"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DIR"
      as_pg "$BIN/initdb" -D "$PG_DIR" -U codehealth --auth=trust -E UTF8 >/dev/null
    fi
    if ! as_pg "$BIN/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
      as_pg "$BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k /tmp -c fsync=off -c max_connections=200" start >/dev/null
    fi
    echo "postgres://codehealth@127.0.0.1:$PG_PORT/postgres"
    ;;
  stop)
    as_pg "$BIN/pg_ctl" -D "$PG_DIR" -m fast stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
