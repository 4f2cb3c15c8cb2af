#!/usr/bin/env bash
# Installs what building, running and testing Kid Coder needs on Debian/Ubuntu,
# skipping whatever is already there. Usage: scripts/setup.sh [run|test]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

pkgs=(gcc pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev bubblewrap python3 python3-matplotlib
      fonts-noto-cjk fonts-noto-color-emoji ca-certificates)
if [ "$mode" = test ]; then
  pkgs+=(xvfb xauth xdotool x11-utils openbox imagemagick python3-tk chromium desktop-file-utils dpkg-dev hyperfine)
fi

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
else
  echo "setup: not a Debian/Ubuntu system; install by hand: ${pkgs[*]} (see README)" >&2
fi

command -v go >/dev/null || { echo "setup: Go 1.26+ is needed: https://go.dev/dl/" >&2; exit 1; }
command -v npm >/dev/null || { echo "setup: Node.js 20+ and npm are needed" >&2; exit 1; }

go mod download
if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  (cd frontend && npm ci --no-audit --no-fund)
fi
# The MCP Inspector, the real client of the end-to-end test of `kidcoder mcp`.
# `npm install --no-save` and not `npm ci`: its lock lacks a Windows-only
# optional package of vite that the registry does not have, which npm ci
# refuses as out of sync; install still takes every locked version.
if [ "$mode" = test ] && { [ ! -d e2e/mcp/node_modules ] || [ e2e/mcp/package-lock.json -nt e2e/mcp/node_modules/.package-lock.json ]; }; then
  (cd e2e/mcp && npm install --no-save --no-audit --no-fund)
fi
