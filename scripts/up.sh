#!/usr/bin/env bash
# One command from a fresh clone to a running Campus Talk on its embedded defaults:
# SQLite and uploads in ./data, the dev mailbox at /dev/mailbox, http://127.0.0.1:8787.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh
pnpm install --frozen-lockfile
exec pnpm start
