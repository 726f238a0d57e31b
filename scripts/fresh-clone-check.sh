#!/usr/bin/env bash
# Proves the README's first commands work from a private directory (mktemp -d is 0700, like /root):
# clone the committed tree, npm ci, `npm start` until /-/readiness answers 200, SIGTERM, `npm test`.
# Usage: scripts/fresh-clone-check.sh [repository]   (default: this checkout)
set -euo pipefail
repo="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
dir="$(mktemp -d)"
app="$dir/app"
server=""
cleanup() {
  if [ -n "$server" ]; then kill -KILL -- "-$server" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
echo "fresh clone in $dir (mode $(stat -c %a "$dir"), user $(id -un))"
git clone -q "$repo" "$app"
cd "$app"
npm ci --no-audit --no-fund --loglevel=error

port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
started=$(date +%s)
PORT="$port" setsid npm start >"$dir/start.log" 2>&1 &
server=$!
ready=""
for _ in $(seq 1 240); do
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  if node -e "fetch('http://127.0.0.1:$port/-/readiness').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"; then ready=1; break; fi
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "npm start did not reach readiness; its log:"; cat "$dir/start.log"; exit 1
fi
echo "npm start ready in $(( $(date +%s) - started )) s (including the first build)"
kill -TERM -- "-$server"
wait "$server" || true
# npm may exit before the service has finished stopping: wait for the whole process group.
for _ in $(seq 1 100); do kill -0 -- "-$server" 2>/dev/null || break; sleep 0.2; done
server=""
grep -q '"msg":"stopped"' "$dir/start.log" || { echo "no 'stopped' line after SIGTERM:"; tail -5 "$dir/start.log"; exit 1; }
[ -f .data/postgres/PG_VERSION ] || { echo "the data is not under DATA_DIR (.data)"; exit 1; }

npm test -- --json --outputFile="$dir/jest.json" >"$dir/test.log" 2>&1 || { tail -60 "$dir/test.log"; exit 1; }
node -e 'const r = require(process.argv[1]); console.log(`fresh-clone suite: ${r.numPassedTests} of ${r.numPassedTests + r.numFailedTests} tests passed`)' "$dir/jest.json"
