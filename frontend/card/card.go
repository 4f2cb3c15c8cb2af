// Package card holds the classroom card: the little classroom built as one
// HTML file, which MCP hosts show beside a run_python result (an MCP App).
// The file is made by `npm run build:card` (the Makefile runs it before any
// Go build), like frontend/dist for the window.
package card

import _ "embed"

// HTML is the card, served as ui://kidcoder/classroom.html.
//
//go:embed classroom.html
var HTML []byte
