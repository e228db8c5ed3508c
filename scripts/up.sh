#!/usr/bin/env bash
# One command from a fresh clone to a running Campus Talk on its embedded defaults:
# SQLite and uploads in ./data, the dev mailbox at /dev/mailbox, http://127.0.0.1:8787.
#   ./scripts/up.sh --demo   also creates the demo accounts, chat and confessions first (as scripts/seed.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
demo=false
for arg in "$@"; do
  case "$arg" in
    --demo) demo=true ;;
    *)
      echo "usage: $0 [--demo]" >&2
      exit 2
      ;;
  esac
done
# A sourced file sees the caller's arguments: bootstrap.sh must not mistake ours for its own.
set --
. scripts/bootstrap.sh
pnpm install --frozen-lockfile
if [ "$demo" = true ]; then pnpm seed; fi
exec pnpm start
