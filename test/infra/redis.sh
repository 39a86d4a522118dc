#!/usr/bin/env bash
# Starts (or stops) a throw-away Redis on 127.0.0.1 from Debian's `redis-server` package, for the
# integration suites. Prints the CACHE_URL to use. No persistence, no password, loopback only.
#   test/infra/redis.sh start   # idempotent; port $REDIS_PORT (default 6389)
#   test/infra/redis.sh stop
set -euo pipefail
REDIS_PORT=${REDIS_PORT:-6389}
REDIS_DIR=${REDIS_DIR:-/tmp/codehealth-redis-$REDIS_PORT}
if ! command -v redis-server >/dev/null; then
  echo "redis.sh: Debian's redis-server package is not installed (apt-get install -y redis-server)" >&2
  exit 1
fi

case "${1:-start}" in
  start)
    mkdir -p "$REDIS_DIR"
    if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
      redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --daemonize yes \
        --dir "$REDIS_DIR" --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" >/dev/null
      for _ in $(seq 1 50); do
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
        sleep 0.1
      done
    fi
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null || { echo "redis.sh: redis-server did not start (see $REDIS_DIR/redis.log)" >&2; exit 1; }
    echo "redis://127.0.0.1:$REDIS_PORT"
    ;;
  stop)
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
