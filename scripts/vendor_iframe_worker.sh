#!/usr/bin/env bash
# Takes the iframe-worker shim from the npm registry into docs/assets/iframe-worker/.
#
# Why: mkdocs-material's offline plugin makes search work from file:// by loading this small
# shim (about 1.4 kB, MIT); by default it points every page at a CDN copy, which breaks offline
# viewing and sends a request to another host. mkdocs.yml lists this local copy under
# extra.polyfills instead, and the plugin then adds no CDN tag. The copy is committed, with the
# package's LICENSE beside it (published with the site), so a clone builds the same site without
# npm; scripts/setup.sh runs this script only when the copy is missing.
#
# Usage: scripts/vendor_iframe_worker.sh   (needs npm; pinned to the version below)
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.0.4
target=docs/assets/iframe-worker
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "iframe-worker@$version" >/dev/null && tar xzf "iframe-worker-$version.tgz")
mkdir -p "$target"
cp "$work/package/shim/index.js" "$target/shim.js"
cp "$work/package/LICENSE" "$target/LICENSE"
printf 'iframe-worker %s from the npm registry (npm pack): shim/index.js, saved as shim.js, and LICENSE\n' \
    "$version" >"$target/SOURCE.txt"
echo "vendor_iframe_worker.sh: iframe-worker $version -> $target/shim.js"
