#!/usr/bin/env bash
# Builds "Kid Coder.app" on a Mac: the universal (Apple silicon + Intel)
# window from `wails build`, the headless kidcoder command beside it, the
# English and Chinese display names and the Makefile's version; then signs
# and notarises it when given the means to.
#
# Usage (on macOS, from anywhere):
#   packaging/macos/build-app.sh
#   SIGN_IDENTITY="Developer ID Application: Name (TEAMID)" packaging/macos/build-app.sh
#   SIGN_IDENTITY=... NOTARY_PROFILE=kidcoder-notary packaging/macos/build-app.sh
# NOTARY_PROFILE names credentials saved once with
#   xcrun notarytool store-credentials kidcoder-notary --apple-id ... --team-id ...
set -euo pipefail
cd "$(dirname "$0")/../.."

[ "$(uname -s)" = Darwin ] || { echo "build-app: run this on a Mac (wails cannot cross-compile the macOS app)" >&2; exit 1; }
command -v wails >/dev/null || { echo "build-app: install Wails: GOTOOLCHAIN=go1.23.12 go install github.com/wailsapp/wails/v2/cmd/wails@v2.9.2" >&2; exit 1; }

version=${VERSION:-$(sed -n 's/^VERSION ?= //p' Makefile)}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -X kidcoder/backend/buildinfo.Version=$version -X kidcoder/backend/buildinfo.Commit=$commit -X kidcoder/backend/buildinfo.Date=$date"
app="build/bin/Kid Coder.app"

# Wails names the bundle after the project (kidcoder.app) and puts the
# kidcoder-gui executable in it, using build/darwin/Info.plist. The frontend's
# bindings (frontend/src/lib/wailsjs) are committed and regenerated with
# `make bindings`, so the build leaves them as they are.
rm -rf build/bin/kidcoder.app "$app"
wails build -platform darwin/universal -trimpath -skipbindings -ldflags "$ldflags"
mv build/bin/kidcoder.app "$app"

# `kidcoder` with no arguments opens the kidcoder-gui beside it, so the
# headless command lives in the same folder as the window's executable.
for arch in arm64 amd64; do
  CGO_ENABLED=0 GOOS=darwin GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "build/bin/kidcoder-darwin-$arch" ./cmd/kidcoder
done
lipo -create -output "$app/Contents/MacOS/kidcoder" build/bin/kidcoder-darwin-arm64 build/bin/kidcoder-darwin-amd64
rm build/bin/kidcoder-darwin-arm64 build/bin/kidcoder-darwin-amd64

for lproj in build/darwin/*.lproj; do
  cp -R "$lproj" "$app/Contents/Resources/"
done
plutil -replace CFBundleShortVersionString -string "$version" "$app/Contents/Info.plist"
plutil -replace CFBundleVersion -string "$version" "$app/Contents/Info.plist"
plutil -lint "$app/Contents/Info.plist"

if [ -n "${SIGN_IDENTITY:-}" ]; then
  # Inside out: the nested executable first, then the bundle that seals it.
  # The hardened runtime is what notarisation requires; the app needs no
  # entitlements because the sandbox and Python run as separate programs.
  codesign --force --timestamp --options runtime --sign "$SIGN_IDENTITY" "$app/Contents/MacOS/kidcoder"
  codesign --force --timestamp --options runtime --sign "$SIGN_IDENTITY" "$app"
  codesign --verify --strict --verbose=2 "$app"
else
  echo "build-app: not signed (set SIGN_IDENTITY to sign); other Macs will refuse to open it" >&2
fi

if [ -n "${NOTARY_PROFILE:-}" ]; then
  [ -n "${SIGN_IDENTITY:-}" ] || { echo "build-app: notarising needs SIGN_IDENTITY too" >&2; exit 1; }
  zip="build/bin/KidCoder-$version.zip"
  ditto -c -k --keepParent "$app" "$zip"
  xcrun notarytool submit "$zip" --keychain-profile "$NOTARY_PROFILE" --wait
  xcrun stapler staple "$app"
  spctl --assess --type execute --verbose "$app"
  rm -f "$zip"
  mkdir -p dist
  ditto -c -k --keepParent "$app" "dist/KidCoder-$version-macos.zip"
  echo "dist/KidCoder-$version-macos.zip"
fi
echo "$app"
