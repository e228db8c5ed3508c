#!/usr/bin/env bash
# The end-to-end suite (Playwright, real Chromium) against the server on PostgreSQL + Redis instead of its
# SQLite default: a throwaway database on 127.0.0.1:5432 (or TEST_DATABASE_URL's server) and a Redis prefix
# of its own, both removed at the end. `pnpm test` (so CI) runs it after the suite on SQLite, with `--built`:
# that run has just built the web app and the server. About 3 minutes.
# bash scripts/e2e-postgres.sh [--built] [playwright arguments]
# One browser at a time unless E2E_WORKERS says otherwise: on a 2-core machine, two Chromiums beside the
# server and PostgreSQL made every browser step take seconds and 5 of 22 tests time out (2026-11-27).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh --with-browser
bash scripts/ensure-postgres.sh
bash scripts/ensure-redis.sh
base="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
run="e2e_$(date +%s)_$$"
url="${base%/*}/ct_${run}"
prefix="ct-${run}"
psql "$base" -qc "CREATE DATABASE ct_${run}"
cleanup() {
  psql "$base" -qc "DROP DATABASE IF EXISTS ct_${run} WITH (FORCE)" || true
  redis-cli --scan --pattern "${prefix}:*" | xargs -r redis-cli del >/dev/null || true
}
trap cleanup EXIT
if [[ "${1:-}" == "--built" ]]; then shift; else pnpm build:app; fi
# Playwright's web server inherits the environment: the seed and the server both run on these.
DATABASE_URL="$url" REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" REDIS_PREFIX="$prefix" \
  pnpm exec playwright test --workers="${E2E_WORKERS:-1}" "$@"
