#!/usr/bin/env bash
# Starts (or stops) a throw-away Neo4j 5.26 Community server (embedded, Bolt only, no auth) on
# 127.0.0.1 for the graph-store integration tests; prints the GRAPH_DB_HOST to use. The launcher and
# Neo4j's jars come from Maven Central once (test/infra/neo4j/pom.xml, ~130 MB in ~/.m2) and are
# built into ~/.cache/codehealth-infra/neo4j; later starts take seconds.
#   test/infra/neo4j.sh start   # idempotent; port $NEO4J_PORT (default 7688)
#   test/infra/neo4j.sh stop
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
NEO4J_PORT=${NEO4J_PORT:-7688}
CACHE=${CODEHEALTH_INFRA_CACHE:-$HOME/.cache/codehealth-infra}/neo4j
DATA=${NEO4J_DIR:-/tmp/codehealth-neo4j-$NEO4J_PORT}
PIDFILE="$DATA/neo4j.pid"

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$NEO4J_PORT") 2>/dev/null; }

build() {
  if [ ! -f "$CACHE/launcher.jar" ] || [ "$HERE/neo4j/pom.xml" -nt "$CACHE/launcher.jar" ] || [ "$HERE/neo4j/src/main/java/codehealth/Neo4jLauncher.java" -nt "$CACHE/launcher.jar" ]; then
    command -v mvn >/dev/null || { echo "neo4j.sh: Maven (mvn) and a JDK 17 are needed to build the launcher" >&2; exit 1; }
    local work
    work=$(mktemp -d)
    cp -r "$HERE/neo4j/." "$work/"
    (cd "$work" && mvn -q -B package -DskipTests >&2)
    rm -rf "$CACHE"
    mkdir -p "$CACHE"
    cp -r "$work/target/lib" "$CACHE/lib"
    cp "$work/target/neo4j-launcher-1.jar" "$CACHE/launcher.jar"
    rm -rf "$work"
  fi
}

case "${1:-start}" in
  start)
    if ! listening; then
      build
      rm -rf "$DATA"
      mkdir -p "$DATA"
      nohup java -Xms256m -Xmx1g -cp "$CACHE/launcher.jar:$CACHE/lib/*" codehealth.Neo4jLauncher "$DATA/db" "$NEO4J_PORT" >"$DATA/neo4j.log" 2>&1 &
      echo $! >"$PIDFILE"
      for _ in $(seq 1 240); do
        listening && break
        if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
          echo "neo4j.sh: Neo4j exited during start-up; its log:" >&2
          tail -20 "$DATA/neo4j.log" >&2
          exit 1
        fi
        sleep 0.5
      done
      listening || { echo "neo4j.sh: Neo4j did not listen on 127.0.0.1:$NEO4J_PORT within 120 s (see $DATA/neo4j.log)" >&2; exit 1; }
    fi
    echo "127.0.0.1:$NEO4J_PORT"
    ;;
  stop)
    if [ -f "$PIDFILE" ]; then
      kill "$(cat "$PIDFILE")" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$(cat "$PIDFILE")" 2>/dev/null || break; sleep 0.25; done
      kill -9 "$(cat "$PIDFILE")" 2>/dev/null || true
      rm -f "$PIDFILE"
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
