#!/usr/bin/env bash
# Creates the demo accounts, chat and confessions (README, "The two commands") in DATA_DIR, ./data by default,
# the database up.sh's server uses. Works on a fresh machine: it gets Node and pnpm the way up.sh does, since
# what up.sh fetched is only on the scripts' own PATH. Arguments go to the seed (--force: even in production).
set -euo pipefail
cd "$(dirname "$0")/.."
seed_args=("$@")
# A sourced file sees the caller's arguments: bootstrap.sh must not mistake ours for its own.
set --
. scripts/bootstrap.sh
pnpm install --frozen-lockfile
exec pnpm seed "${seed_args[@]}"
