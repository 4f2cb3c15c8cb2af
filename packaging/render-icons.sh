#!/usr/bin/env bash
# Renders build/appicon.svg into the hicolor PNG sizes the Linux package ships.
# The PNGs are committed so that building a package needs neither a browser
# nor an SVG rasteriser; run this again whenever the SVG changes (the package
# test fails until you do, through SOURCE.sha256).
# ImageMagick cannot read this SVG here, so headless Chromium rasterises it at
# each size from the vector source: small sizes stay crisp instead of being
# scaled down from a large bitmap.
set -euo pipefail
cd "$(dirname "$0")/.."

svg=build/appicon.svg
out=build/linux/icons
sizes=(16 22 24 32 48 64 128 256 512)
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$browser" ] || { echo "render-icons: Chromium is needed (apt install chromium)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in "${sizes[@]}"; do
  cat >"$tmp/icon.html" <<HTML
<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent}img{display:block}</style></head>
<body><img src="file://$PWD/$svg" width="$n" height="$n"></body></html>
HTML
  mkdir -p "$out/hicolor/${n}x${n}/apps"
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --default-background-color=00000000 --window-size="$n,$n" \
    --screenshot="$tmp/icon.png" "file://$tmp/icon.html" >/dev/null 2>&1
  # Chromium writes an sRGB PNG with a time chunk; strip it so a re-render of
  # an unchanged SVG does not show up as a change.
  if command -v convert >/dev/null; then
    convert "$tmp/icon.png" -strip "PNG32:$out/hicolor/${n}x${n}/apps/kidcoder.png"
  else
    cp "$tmp/icon.png" "$out/hicolor/${n}x${n}/apps/kidcoder.png"
  fi
  echo "rendered ${n}x${n}"
done
sha256sum "$svg" | cut -d' ' -f1 >"$out/SOURCE.sha256"
