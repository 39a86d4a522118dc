#!/usr/bin/env bash
# Starts (or stops) a real Temporal server on 127.0.0.1 for the workflow integration suites: the
# Temporal CLI's dev server, built once from its Go module (cached in $INFRA_DIR/bin) — see
# ../shared/NOTES.md. Prints the address (host:port) to use as WORKFLOW_ADDRESS.
#   test/infra/temporal.sh start | stop
set -euo pipefail
INFRA_DIR=${CODEHEALTH_INFRA_DIR:-$HOME/.cache/codehealth-infra}
TEMPORAL_PORT=${TEMPORAL_PORT:-7239}
BIN="$INFRA_DIR/bin/temporal"
PID_FILE="$INFRA_DIR/temporal-$TEMPORAL_PORT.pid"
mkdir -p "$INFRA_DIR/bin"

case "${1:-start}" in
  start)
    if [ ! -x "$BIN" ]; then
      command -v go >/dev/null || { echo "temporal.sh: Go is needed to build the Temporal CLI" >&2; exit 1; }
      echo "temporal.sh: building the Temporal CLI v1.5.1 (once)..." >&2
      GOBIN="$INFRA_DIR/bin" GOFLAGS=-mod=mod go install github.com/temporalio/cli/cmd/temporal@v1.5.1 >&2
    fi
    if [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
      echo "127.0.0.1:$TEMPORAL_PORT"
      exit 0
    fi
    nohup "$BIN" server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" --headless --log-level error \
      > "$INFRA_DIR/temporal-$TEMPORAL_PORT.log" 2>&1 &
    echo $! > "$PID_FILE"
    for _ in $(seq 1 60); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$TEMPORAL_PORT") 2>/dev/null; then
        sleep 1 # the frontend accepts connections a moment before the default namespace is ready
        echo "127.0.0.1:$TEMPORAL_PORT"
        exit 0
      fi
      sleep 0.5
    done
    echo "temporal.sh: the server did not start; log: $INFRA_DIR/temporal.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$PID_FILE" ]; then kill "$(cat "$PID_FILE")" 2>/dev/null || true; rm -f "$PID_FILE"; fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
