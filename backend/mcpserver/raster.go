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
)

// maxRasterSide bounds the longer side of a turtle PNG, in pixels.
const maxRasterSide = 1024

// maxPNGBytes bounds a turtle PNG: a busier drawing is drawn smaller
// until it fits (a 2,000-step spiral is about 100 KiB at 1024 pixels).
const maxPNGBytes = 96 << 10

// minRasterSide is the smallest a drawing is made to fit maxPNGBytes.
const minRasterSide = 256

// maxRasterWork bounds the time a PNG takes: the rasterizer goes over the
// whole picture for every path (a line of one colour), so a drawing of
// many paths is drawn smaller, at most this many paths × pixels (about a
// second). A spiral that changes colour at each of its 2,000 steps took
// 9 s at 1024 pixels.
const maxRasterWork = 2e8

// svgToPNG rasterizes a turtle drawing's SVG (already checked by the host,
// see kidrun's images) to a PNG no larger than maxRasterSide on a side,
// within maxRasterWork and, down to minRasterSide, maxPNGBytes in all. write() text is drawn with a
// system font (drawText).
func svgToPNG(svg string) ([]byte, error) {
	icon, err := oksvg.ReadIconStream(strings.NewReader(unscale(svg)), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, err
	}
	w, h := icon.ViewBox.W, icon.ViewBox.H
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return nil, errors.New("the drawing has no size")
	}
	texts := textsOf(svg)
	side := math.Min(maxRasterSide, math.Sqrt(maxRasterWork/float64(max(1, len(icon.SVGPaths)))*math.Max(w, h)/math.Min(w, h)))
	for {
		scale := math.Min(1, side/math.Max(w, h))
		pw, ph := max(1, int(math.Round(w*scale))), max(1, int(math.Round(h*scale)))
		// An icon draws once: each size starts from the SVG again.
		if icon == nil {
			if icon, err = oksvg.ReadIconStream(strings.NewReader(unscale(svg)), oksvg.IgnoreErrorMode); err != nil {
				return nil, err
			}
		}
		icon.SetTarget(0, 0, float64(pw), float64(ph))
		img := image.NewRGBA(image.Rect(0, 0, pw, ph))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		icon.Draw(rasterx.NewDasher(pw, ph, rasterx.NewScannerGV(pw, ph, img, img.Bounds())), 1)
		drawText(img, texts, icon.ViewBox.X, icon.ViewBox.Y, scale)
		icon = nil
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, paletted(img)); err != nil {
			return nil, err
		}
		if buf.Len() <= maxPNGBytes || max(pw, ph) <= minRasterSide {
			return buf.Bytes(), nil
		}
		// The bytes of a line drawing grow about as its side does.
		side = math.Max(minRasterSide, float64(max(pw, ph))*math.Min(0.9, float64(maxPNGBytes)/float64(buf.Len())))
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
