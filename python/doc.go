// Package python embeds the Python layer (runner, turtle recorder, SVG renderer, friendly errors) and extracts it for the sandbox.
package python
