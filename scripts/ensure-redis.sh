#!/usr/bin/env bash
# Redis on 127.0.0.1:6379 for the multi-node tests (server/test/redis-*.test.ts): used as it is when it answers
# (these machines start it), else installed from Debian if missing and started without persistence.
set -euo pipefail
redis_up() { command -v redis-cli >/dev/null 2>&1 && [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }
redis_up && exit 0
if ! command -v redis-server >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo"
  echo "ensure-redis: installing redis-server from Debian" >&2
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >&2
fi
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >&2
for _ in $(seq 50); do redis_up && exit 0; sleep 0.1; done
echo "ensure-redis: redis did not start on 127.0.0.1:6379" >&2
exit 1
