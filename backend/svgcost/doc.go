// Package svgcost measures what an SVG asks of whoever draws it, before anything is drawn: its elements, fills and strokes, path points and dash segments.
package svgcost
