#!/usr/bin/env bash
# Re-fetches the page's vendored terminal, xterm.js and its fit addon, at
# their pinned versions from the npm registry (npm pack), checks each
# package against its pinned integrity, and copies its built ES module, its
# stylesheet and its licence into this folder, byte for byte as packed.
# Nothing else of a package is kept; the server embeds these files and
# fetches nothing at run time. To move to a new version, change the
# version and its integrity (npm view NAME@VERSION dist.integrity) below,
# run this script, and read the diff.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# name version integrity folder files...
packages=(
  "@xterm/xterm 6.0.0 sha512-TQwDdQGtwwDt+2cgKDLn0IRaSxYu1tSUjgKarSDkUM0ZNiSRXFpjxEsvc/Zgc5kq5omJ+V0a8/kIM2WD3sMOYg== xterm lib/xterm.mjs css/xterm.css LICENSE"
  "@xterm/addon-fit 0.11.0 sha512-jYcgT6xtVYhnhgxh3QgYDnnNMYTcf8ElbxxFzX0IZo+vabQqSPAjC3c1wJrKB5E19VwQei89QCiZZP86DCPF7g== xterm-addon-fit lib/addon-fit.mjs LICENSE"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for line in "${packages[@]}"; do
  read -r name version integrity folder files <<<"$line"
  (cd "$work" && npm pack --silent "$name@$version" >/dev/null)
  tgz="$work/$(echo "${name#@}" | tr / -)-$version.tgz"
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "vendor.sh: $name@$version has integrity $got, not the pinned $integrity" >&2
    exit 1
  fi
  rm -rf "${work:?}/package"
  tar -xzf "$tgz" -C "$work"
  rm -rf "${here:?}/$folder"
  mkdir -p "$here/$folder"
  for f in $files; do
    cp "$work/package/$f" "$here/$folder/$(basename "$f")"
  done
  echo "$name@$version ($integrity)" >"$here/$folder/VERSION"
  echo "vendor.sh: $name@$version -> $folder/"
done
