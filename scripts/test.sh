#!/usr/bin/env bash
# Runs every test: unit and server integration (vitest), then end-to-end in Chromium (Playwright)
# against the production build served by the server.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh --with-browser
pnpm install --frozen-lockfile
bash scripts/ensure-redis.sh
bash scripts/ensure-postgres.sh
pnpm test
