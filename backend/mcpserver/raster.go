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

// svgToPNG rasterizes a turtle drawing's SVG (already checked by the host,
// see kidrun's images) to a PNG no larger than maxRasterSide on a side.
// Text elements are not drawn: the SVG embedded beside the PNG has them.
func svgToPNG(svg string) ([]byte, error) {
	icon, err := oksvg.ReadIconStream(strings.NewReader(unscale(svg)), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, err
	}
	w, h := icon.ViewBox.W, icon.ViewBox.H
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return nil, errors.New("the drawing has no size")
	}
	scale := math.Min(1, maxRasterSide/math.Max(w, h))
	pw, ph := max(1, int(math.Round(w*scale))), max(1, int(math.Round(h*scale)))
	icon.SetTarget(0, 0, float64(pw), float64(ph))
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	icon.Draw(rasterx.NewDasher(pw, ph, rasterx.NewScannerGV(pw, ph, img, img.Bounds())), 1)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
