// Package packs reads, validates, builds, imports and checks exercise packs: teacher-made bundles of Python exercises with instructions, hints and automatic checks.
package packs
