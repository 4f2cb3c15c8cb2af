#!/usr/bin/env bash
# End-to-end tests: the real app under Xvfb, and the frontend in headless
# Chromium wired to the real Go backend and sandbox. Screenshots land in
# test-artifacts/. The MCP server is driven by the MCP Inspector's command line.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-artifacts
go build -o build/bin/kidcoder-devserver ./cmd/kidcoder-devserver
go test -tags e2e -count=1 -v ./e2e/ 2>&1 | grep -v -e 'Gtk-WARNING' -e "fallback 'C' locale" -e 'JSC_SIGNAL_FOR_GC'
test "${PIPESTATUS[0]}" -eq 0
node e2e/browser/real_backend.mjs
node e2e/browser/live_drawing.mjs
node e2e/browser/console_flood.mjs
node e2e/browser/console_keeps.mjs
node e2e/browser/game_keys.mjs
node e2e/browser/language.mjs
node e2e/browser/course.mjs
node e2e/browser/real_course.mjs
node e2e/browser/real_live.mjs
node e2e/browser/real_steps.mjs
(cd frontend && node tests/screenshots.mjs)
node e2e/browser/card.mjs
node e2e/mcp/inspector.mjs
