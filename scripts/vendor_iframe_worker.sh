#!/usr/bin/env bash
# Takes the iframe-worker shim (search from file://) from the npm registry into
# docs/assets/iframe-worker/, so that no page loads it from a CDN (docs/CONTRIBUTING.md, "The
# site's one vendored file"). Needs npm; pinned to the version below.
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
