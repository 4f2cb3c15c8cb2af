// Package course holds the built-in course: exercise packs kept as source
// folders in packs/, embedded in the binary and built into .kidpack files.
package course
