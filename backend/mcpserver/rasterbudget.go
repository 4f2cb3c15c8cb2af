package mcpserver

import (
	"errors"
	"image"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"

	"kidcoder/backend/svgcost"
)

// errTooComplex is returned by svgToPNG for a drawing that would take more
// than maxRasterWork to draw even at its smallest: it is answered with
// "picture too complex" (mcp.picture_complex) and the session's queue moves on.
var errTooComplex = errors.New("picture too complex")

// The rasterizer's work is counted in units of one pixel of one fill or
// stroke: rasterx's scanner goes over the whole picture for each. Measured
// against that on one machine: a stroked point with round joins is about a
// hundred (some twenty edges), a dash with round caps about two hundred,
// a step of the dasher's walk to its offset a tenth. The estimates round
// up; the watchdog counts what is done.
const (
	maxRasterWork   = 2e8 // about a second
	rasterPointWork = 128
	rasterDashWork  = 256
	rasterLineWork  = 4  // one edge handed to the scanner
	pngWork         = 16 // encoding one pixel
	// Past this many units done (the estimate was short) the watchdog
	// stops the drawing. It counts work, not time, so a slow or busy
	// machine draws what a fast one does.
	rasterWatchdogWork = 2 * maxRasterWork
	// A drawing whose estimate does not fit at this side is too complex.
	minComplexSide = 64
)

// rasterEstimate is the work of drawing an SVG of cost c at scale (output
// pixels per user unit) onto pixels pixels and encoding it.
func rasterEstimate(c svgcost.Cost, scale float64, pixels int) float64 {
	return float64(c.Draws+1)*float64(pixels) + pngWork*float64(pixels) +
		rasterPointWork*float64(c.Points) + rasterDashWork*c.RasterDashes*scale + c.OffsetSteps/8
}

// rasterBudget is what one picture may still cost; its watchdog stops a
// drawing that does more than its estimate said.
type rasterBudget struct {
	left float64 // of maxRasterWork, by the estimates
	done float64 // counted by the watchdog
}

func newRasterBudget() *rasterBudget {
	return &rasterBudget{left: maxRasterWork}
}

// fit returns the largest side, at most maxSide, at which a picture of
// cost c sized w × h fits share of what is left, with its scale and
// pixels; side 0 when it does not fit even at minSide.
func (b *rasterBudget) fit(c svgcost.Cost, w, h, maxSide, minSide, share float64) (side, scale float64, pw, ph int) {
	for side = maxSide; side >= minSide; side *= 0.8 {
		scale = math.Min(1, side/math.Max(w, h))
		pw, ph = max(1, int(math.Round(w*scale))), max(1, int(math.Round(h*scale)))
		// NaN (a cost that overflowed) fits nothing.
		if rasterEstimate(c, scale, pw*ph) <= b.left*share {
			return side, scale, pw, ph
		}
	}
	return 0, 0, 0, 0
}

// overBudget is the watchdog's panic, recovered by draw.
type overBudget struct{}

// draw runs paint with a scanner for img whose every call the watchdog
// counts; errTooComplex when it stopped the drawing.
func (b *rasterBudget) draw(img *image.RGBA, paint func(rasterx.Scanner)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overBudget); !ok {
				panic(r)
			}
			err = errTooComplex
		}
	}()
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	paint(&watchdog{Scanner: rasterx.NewScannerGV(w, h, img, img.Bounds()), b: b, pixels: float64(w * h)})
	return nil
}

// watchdog is a scanner that counts its work into the budget and stops
// the drawing (a panic out of rasterx, which holds nothing that needs
// undoing) once it passes rasterWatchdogWork.
type watchdog struct {
	rasterx.Scanner
	b      *rasterBudget
	pixels float64 // of the picture: what one Draw goes over
}

func (d *watchdog) charge(work float64) {
	if d.b.done += work; d.b.done > rasterWatchdogWork {
		panic(overBudget{})
	}
}

func (d *watchdog) Start(a fixed.Point26_6) {
	d.charge(rasterLineWork)
	d.Scanner.Start(a)
}

func (d *watchdog) Line(b fixed.Point26_6) {
	d.charge(rasterLineWork)
	d.Scanner.Line(b)
}

func (d *watchdog) Draw() {
	d.charge(d.pixels)
	d.Scanner.Draw()
}
