package mcpserver

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"

	"kidcoder/backend/svgcost"
)

// maxRasterSide bounds the longer side of a turtle PNG, in pixels.
const maxRasterSide = 1024

// maxPNGBytes bounds a turtle PNG: a busier drawing is drawn smaller
// until it fits (a 2,000-step spiral is about 100 KiB at 1024 pixels).
const maxPNGBytes = 96 << 10

// minRasterSide is the smallest a drawing is made to fit maxPNGBytes.
const minRasterSide = 256

// svgToPNG rasterizes a turtle drawing's SVG (already checked by the host,
// see kidrun's images) to a PNG no larger than maxRasterSide on a side
// and, down to minRasterSide, maxPNGBytes in all, within one budget of
// work (rasterBudget): the drawing's cost is measured before anything is
// drawn (svgcost) and sets the largest side that fits; a drawing that fits
// at no side is errTooComplex, and the watchdog stops one that does more
// than its estimate said. write() text is drawn with a system font (drawText).
func svgToPNG(svg string) ([]byte, error) {
	src := unscale(svg)
	cost, err := svgcost.Measure([]byte(src))
	if err != nil {
		return nil, err
	}
	if !(rasterEstimate(cost, 0, 0) <= maxRasterWork) {
		return nil, errTooComplex // at any size
	}
	icon, err := oksvg.ReadIconStream(strings.NewReader(src), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, err
	}
	w, h := icon.ViewBox.W, icon.ViewBox.H
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return nil, errors.New("the drawing has no size")
	}
	texts := textsOf(svg)
	budget := newRasterBudget()
	// The first size takes half the budget at most, so that a smaller one
	// can follow when its PNG is too large.
	side, scale, pw, ph := budget.fit(cost, w, h, maxRasterSide, minComplexSide, 0.5)
	if side == 0 {
		return nil, errTooComplex
	}
	var best []byte
	for {
		// An icon draws once: each size starts from the SVG again.
		if icon == nil {
			if icon, err = oksvg.ReadIconStream(strings.NewReader(src), oksvg.IgnoreErrorMode); err != nil {
				return nil, err
			}
		}
		budget.left -= rasterEstimate(cost, scale, pw*ph)
		// oksvg's SetTarget moves the view box's corner by its unscaled
		// coordinates, which leaves a drawing drawn smaller off its
		// picture (a blank PNG): the corner moves first, then the scale.
		icon.Transform = rasterx.Identity.Scale(scale, scale).Translate(-icon.ViewBox.X, -icon.ViewBox.Y)
		img := image.NewRGBA(image.Rect(0, 0, pw, ph))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		err := budget.draw(img, func(sc rasterx.Scanner) { icon.Draw(rasterx.NewDasher(pw, ph, sc), 1) })
		if err != nil {
			if best != nil {
				return best, nil // the last size drawn, if larger than wanted
			}
			return nil, err
		}
		drawText(img, texts, icon.ViewBox.X, icon.ViewBox.Y, scale)
		icon = nil
		// zlib's default level: its best takes up to twenty times as long
		// on a busy drawing (3.2 s against 0.18 s for 60,000 lines at 1024
		// pixels) for a PNG 6% smaller.
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, paletted(img)); err != nil {
			return nil, err
		}
		best = buf.Bytes()
		if buf.Len() <= maxPNGBytes || max(pw, ph) <= minRasterSide {
			return best, nil
		}
		// The bytes of a line drawing grow about as its side does.
		next := math.Max(minRasterSide, float64(max(pw, ph))*math.Min(0.9, float64(maxPNGBytes)/float64(buf.Len())))
		if side, scale, pw, ph = budget.fit(cost, w, h, next, minRasterSide, 1); side == 0 {
			return best, nil // the budget is spent: this size stands
		}
	}
}

// paletted is img in a byte a pixel instead of three when it has at most
// 256 colours (a drawing of a few colours, anti-aliased), which PNG stores
// in far fewer bytes; else img itself. A fixed palette would lose faint
// lines: a drawing scaled down draws them in near-white.
func paletted(img *image.RGBA) image.Image {
	seen := map[color.RGBA]uint8{}
	var pal color.Palette
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if _, ok := seen[c]; !ok {
				if len(pal) == 256 {
					return img
				}
				seen[c] = uint8(len(pal))
				pal = append(pal, c)
			}
		}
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetColorIndex(x, y, seen[img.RGBAAt(x, y)])
		}
	}
	return out
}

// The turtle's lines are drawn at ten times their size inside
// transform="scale(.1)", so their coordinates keep one decimal as whole
// numbers; oksvg scales neither the stroke width nor every segment of such
// a path. unscale applies the scale to the numbers instead: the paths hold
// only straight-line commands, for which that is exact.
var (
	scaledPath = regexp.MustCompile(`<path transform="scale\(\.1\)" d="([^"]*)" ([^>]*?)stroke-width="([^"]*)"`)
	number     = regexp.MustCompile(`-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)
)

func unscale(svg string) string {
	tenth := func(n string) string {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		return strconv.FormatFloat(f/10, 'g', -1, 64)
	}
	return scaledPath.ReplaceAllStringFunc(svg, func(m string) string {
		g := scaledPath.FindStringSubmatch(m)
		return `<path d="` + number.ReplaceAllStringFunc(g[1], tenth) + `" ` + g[2] + `stroke-width="` + tenth(g[3]) + `"`
	})
}
