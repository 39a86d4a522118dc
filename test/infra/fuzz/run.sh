#!/usr/bin/env bash
# Fuzzes the REST API from its own OpenAPI document with schemathesis (property-based): every
# operation gets generated valid and invalid requests, and every answer must be a documented
# status (never a 5xx), JSON where JSON is documented, and match its response schema.
#
#   test/infra/fuzz/run.sh      builds, starts `codehealth serve --embedded` on a temp dir and a
#                               free port, creates keys, seeds a project with real records
#                               (seed.py), runs schemathesis, prints a summary; exit 0 = no failure
#   test/infra/fuzz/run.sh --include-operation-id updateAdr --checks all
#                               further arguments go to `schemathesis run` (explore, narrow down)
#
# Environment (all optional):
#   CODEHEALTH_FUZZ_EXAMPLES   test cases per operation and phase (default 100)
#   CODEHEALTH_FUZZ_SEED       generation seed (default fixed, so CI runs are reproducible;
#                              `random` for a fresh one, printed in the summary)
#   CODEHEALTH_FUZZ_VENV       the cached virtualenv (default ~/.cache/codehealth-infra/fuzz-venv)
#   CODEHEALTH_FUZZ_KEEP=1     keep the temp dir (server log, data, schemathesis reports)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
VENV=${CODEHEALTH_FUZZ_VENV:-$HOME/.cache/codehealth-infra/fuzz-venv}
EXAMPLES=${CODEHEALTH_FUZZ_EXAMPLES:-100}
SEED=${CODEHEALTH_FUZZ_SEED:-20240501}
# The whole schemathesis run stops here even if the machine is slow (the budget is 5 minutes).
FUZZ_TIMEOUT=${CODEHEALTH_FUZZ_TIMEOUT:-240}

say() { echo "fuzz: $*" >&2; }

# -- the virtualenv, rebuilt only when requirements.txt changes
STAMP="$VENV/.requirements.sha256"
WANT=$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/schemathesis" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
  command -v python3 >/dev/null || { say "python3 is required (Debian: apt-get install python3 python3-venv)"; exit 1; }
  say "creating $VENV"
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" || { say "python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
  echo "$WANT" >"$STAMP"
fi

# -- the server: built, embedded, on a temp data dir and a free loopback port
(cd "$ROOT" && npm run --silent build)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/codehealth-fuzz.XXXXXX")
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "${CODEHEALTH_FUZZ_KEEP:-}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
export CODEHEALTH_DATA_DIR="$WORK/data"
# The fuzzer sends thousands of requests with one key, and many without a valid one: rate limiting
# (tested on its own) would turn most answers into 429s.
HOST=127.0.0.1 PORT=$PORT RATE_LIMIT_PER_MINUTE=1000000 RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE=1000000 node "$ROOT/packages/cli/bin/codehealth.js" serve --embedded >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 240); do
  if "$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" "$BASE/healthz" 2>/dev/null; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then say "the server exited:"; cat "$WORK/server.log" >&2; exit 1; fi
  sleep 0.5
done
"$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" "$BASE/healthz" \
  || { say "the server did not answer /healthz within 120 s:"; cat "$WORK/server.log" >&2; exit 1; }
say "server at $BASE (data in $CODEHEALTH_DATA_DIR)"

# -- keys (through the running server, as `keys create` does) and the seeded records
key_of() { node "$ROOT/packages/cli/bin/codehealth.js" keys create --email "$1" --name fuzz | "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["key"])'; }
export FUZZ_EMAIL=fuzz@example.com FUZZ_MEMBER_EMAIL=fuzz-member@example.com
FUZZ_KEY=$(key_of "$FUZZ_EMAIL")
FUZZ_MEMBER_KEY=$(key_of "$FUZZ_MEMBER_EMAIL")
export FUZZ_KEY FUZZ_MEMBER_KEY
started=$(date +%s)
"$VENV/bin/python" "$HERE/seed.py" "$BASE" "$WORK" >"$WORK/ids.env" || { say "seeding failed; server log:"; tail -50 "$WORK/server.log" >&2; exit 1; }
set -a
# shellcheck disable=SC1091
. "$WORK/ids.env"
set +a
say "seeded in $(($(date +%s) - started)) s: $(wc -l <"$WORK/ids.env") identifiers"

# -- the fuzz run
[ "$SEED" = random ] && SEED=$("$VENV/bin/python" -c 'import random; print(random.getrandbits(63))')
status=0
(cd "$WORK" && timeout --signal=INT "$FUZZ_TIMEOUT" "$VENV/bin/schemathesis" --config-file "$HERE/schemathesis.toml" run "$BASE/api/v1/openapi.json" \
  --phases examples,coverage,fuzzing --mode all --max-examples "$EXAMPLES" --seed "$SEED" \
  --no-color --report junit --report-dir "$WORK/report" "$@") || status=$?

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  wait "$SERVER_PID" && code=0 || code=$?
  say "the server exited during the run (exit $code); the end of its log:"
  tail -40 "$WORK/server.log" >&2
  SERVER_PID=""
fi
# Internal errors are logged by the server with their stack (never headers or bodies): show them.
internal=$(grep -c '^error ' "$WORK/server.log" || true)
if [ "$internal" -gt 0 ]; then
  say "the server logged $internal internal errors; the first ones:"
  grep -A4 '^error ' "$WORK/server.log" | head -60 >&2
fi
# Bad input must lose nothing: the seeded records that no operation was aimed at are still there.
lost=0
"$VENV/bin/python" "$HERE/seed.py" --verify "$BASE" || lost=1
requests=$(grep -cE '^(GET|POST|PATCH|PUT|DELETE|HEAD|OPTIONS) ' "$WORK/server.log" || true)
if [ "$status" = 124 ]; then say "schemathesis did not finish within $FUZZ_TIMEOUT s"; fi
if [ "$status" = 0 ] && [ "$internal" = 0 ] && [ "$lost" = 0 ]; then
  say "passed: $requests requests, no server error, every answer documented, no seeded record lost (seed $SEED)"
  exit 0
fi
say "FAILED (schemathesis exit $status, $internal internal errors logged, records lost: $lost, seed $SEED)"
exit 1
