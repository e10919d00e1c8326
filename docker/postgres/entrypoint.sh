#!/bin/sh
# Make the cluster on the first start (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB), then run the server
# in the foreground with the command's words as its options.
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
: "${PGDATA:=/var/lib/postgresql/data}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
if [ "${1:-}" = "postgres" ]; then shift; fi  # `postgres -p 5433` as for the official image

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "digsite-postgres: set POSTGRES_PASSWORD to make the cluster" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-host=scram-sha-256 --auth-local=peer \
    -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$db" != "postgres" ]; then
    echo "CREATE DATABASE \"$db\" OWNER \"$user\";" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "digsite-postgres: made the cluster (user $user, database $db)"
fi
exec "$bin/postgres" -D "$PGDATA" "$@"
