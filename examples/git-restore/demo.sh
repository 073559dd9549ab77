#!/bin/sh
# The git-restore demo (README.md): copies project/ into a new git repository in a temporary
# directory and runs loopgate there, printing each command before its output. Commit dates and
# identities are fixed, so the commits, and so the output, are the same on every machine.
set -u
here=$(cd "$(dirname "$0")" && pwd)
loopgate="node $here/../../bin/loopgate.js"
repo=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-git-restore-XXXXXX")
trap 'rm -rf "$repo"' EXIT
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
export GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.com NO_COLOR=1
cp -R "$here/project/." "$repo"
cd "$repo"
printf '.loopgate/\n' > .gitignore
git init --quiet --initial-branch=main && git add . && git commit --quiet -m "calc with two bugs"

# Prints a loopgate command line as typed, then runs it.
show() {
  echo "\$ loopgate $1"
  eval "$loopgate $1" 2>&1
  code=$?
  [ "$code" = 0 ] || echo "(exit $code)"
}
show 'run loopgate.yaml'
show 'diff calc 2 --against 1'
show 'restore calc 1 --text "keep the fixed add(); now fix mul()"'
show 'resume'
show 'diff calc'
