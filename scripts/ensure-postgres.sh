#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1:5432 (trust auth, database `test`) for the server-pg vitest project and the
# PostgreSQL tests of the server project (server/test/pg-*.test.ts, migrations-postgres, postgres-server):
# used as it is when it answers (these machines and CI start PostgreSQL 15 before the session), else the
# installed cluster is started. TEST_DATABASE_URL points the tests elsewhere; then nothing is checked here.
set -euo pipefail
[ -n "${TEST_DATABASE_URL:-}" ] && exit 0
pg_up() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; }
pg_up && exit 0
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "ensure-postgres: starting PostgreSQL $version (cluster main)" >&2
  sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo"
  $sudo pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  for _ in $(seq 50); do pg_up && exit 0; sleep 0.2; done
fi
echo "ensure-postgres: PostgreSQL does not answer on 127.0.0.1:5432. Start it" \
  "(pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start, or" \
  "docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=test postgres:15)" \
  "or set TEST_DATABASE_URL." >&2
exit 1
