#!/bin/sh
# Run by `npm ci` and `npm install` (package.json's "prepare"): points git at .githooks/ so that every commit
# is type-checked and linted first. Only in reelbot's own git work tree; anywhere else (an unpacked tarball,
# a CI checkout without git, a folder inside another repository) it does nothing. It never fails the install.
top=$(git rev-parse --show-toplevel 2>/dev/null) || exit 0
[ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ] || exit 0
current=$(git config core.hooksPath 2>/dev/null)
if [ -n "$current" ] && [ "$current" != ".githooks" ]; then
  echo "reelbot: git already uses hooks from $current; to use reelbot's: git config core.hooksPath .githooks" >&2
  exit 0
fi
git config core.hooksPath .githooks ||
  echo "reelbot: could not set the git hooks; to use them: git config core.hooksPath .githooks" >&2
exit 0
