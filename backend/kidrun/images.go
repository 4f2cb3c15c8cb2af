package kidrun

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kidcoder/backend/svgcost"
)

// The result frame comes from inside the sandbox, where the child could have
// written it, so its pictures are checked here, once, before they reach the
// command line, the window or anything else: a PNG is walked chunk by chunk
// and rebuilt from the chunks a picture needs; an SVG is parsed and written
// out again from an allow-list of elements and attributes. A picture that
// fails is dropped whole.

// Bounds on pictures. The runner keeps its whole result frame under 15 MiB
// of JSON, so a real picture is at most 11.25 MiB decoded, and an SVG of
// that size holds under 300k elements (the smallest it writes, a dot, takes
// 44 bytes): these bounds never drop a drawing the runner can send.
const (
	maxImageBytes  = 12 << 20 // decoded, per picture, in and out
	maxSVGElements = 1 << 19
	maxSVGDepth    = 32 // the runner's SVGs nest three deep (svg, text, tspan)
	maxPNGSide     = 16384
	maxPNGPixels   = 1 << 25 // 32 Mpx: 128 MiB as RGBA in the window
	// An SVG of maxImageBytes holds under 3 million points (the runner's
	// shortest, "l1 1", takes 4 bytes); it writes no dashes.
	maxSVGPoints = 1 << 22
	maxSVGDashes = 1 << 18
)

// Bounds on a run's pictures together, whatever each one passes: the
// window decodes every picture of a run at once. Twenty plots of 640 × 480
// pixels (matplotlib's default) are 6 Mpx; a PNG is checked only while its
// pixels fit what is left, so the host inflates no more than this either.
const (
	maxRunPixels   = 1 << 25 // PNG pixels per run: 128 MiB as RGBA
	maxRunPictures = 21      // the turtle's SVG and the runner's 20 figures
)

// errBadImage is returned by sanitizeSVG and checkPNG for a picture that is
// not handed on.
var errBadImage = errors.New("picture refused")

func badImage(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadImage, fmt.Sprintf(format, args...))
}

// checkImages returns the pictures of images that pass their checks, each
// rewritten from what was understood of it, and how many were left out
// because the run's pictures together would pass maxRunPixels or
// maxRunPictures. At most one SVG, and only in first place, as the runner
// sends it (docs/runner-protocol.md).
func checkImages(images []Image) ([]Image, int) {
	out := []Image{}
	left := 0
	var pixels int64
	for i, im := range images {
		if len(im.Data) > base64.StdEncoding.EncodedLen(maxImageBytes) {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(im.Data)
		if err != nil {
			continue
		}
		var clean []byte
		switch im.Mime {
		case "image/svg+xml":
			if i != 0 {
				continue
			}
			clean, err = sanitizeSVG(raw)
		case "image/png":
			n := pngPixels(raw)
			if len(out) >= maxRunPictures || pixels+n > maxRunPixels {
				left++
				continue
			}
			// Spent whether it passes or not: checking it is the host's work.
			pixels += n
			clean, err = checkPNG(raw)
		default:
			continue
		}
		if err != nil {
			continue
		}
		out = append(out, Image{Mime: im.Mime, Data: base64.StdEncoding.EncodeToString(clean)})
	}
	return out, left
}

// pngPixels is the width × height of a PNG whose first chunk is IHDR, read
// before anything is inflated; 0 for anything else, which checkPNG refuses.
func pngPixels(b []byte) int64 {
	if len(b) < 24 || !bytes.HasPrefix(b, pngSig) || string(b[12:16]) != "IHDR" {
		return 0
	}
	return int64(binary.BigEndian.Uint32(b[16:])) * int64(binary.BigEndian.Uint32(b[20:]))
}

const svgNS = "http://www.w3.org/2000/svg"

// svgElements are the elements kept (python/kidsvg.py writes svg, rect, path,
// circle, text and tspan; the rest are plain shapes a renderer may add).
// Anything else is dropped with all it holds: script, style, foreignObject,
// a, image, use, animate, filter, pattern, ...
var svgElements = map[string]bool{
	"svg": true, "g": true, "path": true, "line": true, "polyline": true,
	"polygon": true, "circle": true, "ellipse": true, "rect": true,
	"text": true, "tspan": true, "title": true, "desc": true,
}

// svgTextElements are the elements whose character data is kept.
var svgTextElements = map[string]bool{"text": true, "tspan": true, "title": true, "desc": true}

// svgAttrs are the attributes kept, in no namespace. Deliberately absent:
// every on* handler, href and xlink:href, style, class, id, and every
// attribute that only points at other content (clip-path, mask, filter,
// marker-*).
var svgAttrs = map[string]bool{
	"viewBox": true, "width": true, "height": true, "preserveAspectRatio": true, "version": true,
	"x": true, "y": true, "x1": true, "y1": true, "x2": true, "y2": true, "dx": true, "dy": true,
	"cx": true, "cy": true, "r": true, "rx": true, "ry": true, "d": true, "points": true,
	"fill": true, "fill-opacity": true, "fill-rule": true, "opacity": true,
	"stroke": true, "stroke-width": true, "stroke-opacity": true, "stroke-linecap": true,
	"stroke-linejoin": true, "stroke-miterlimit": true, "stroke-dasharray": true, "stroke-dashoffset": true,
	"transform": true, "font-family": true, "font-size": true, "font-weight": true, "font-style": true,
	"text-anchor": true, "dominant-baseline": true, "text-decoration": true,
}

var (
	// A paint is a colour or none: never url(...), so it cannot fetch or reference anything.
	svgPaint = regexp.MustCompile(`^\s*(none|#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,32})\s*$`)
	// A transform is a list of the six transform functions over numbers.
	svgTransform = regexp.MustCompile(`^(\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\([-+0-9.eE,\s]*\)\s*,?)*\s*$`)
)

// svgValueOK says whether value may stand in attribute name. A backslash is
// refused everywhere because CSS escapes could spell url( in a way a plain
// search does not see.
func svgValueOK(name, value string) bool {
	if strings.ContainsRune(value, '\\') || hasURL(value) {
		return false
	}
	switch name {
	case "fill", "stroke":
		return svgPaint.MatchString(value)
	case "transform":
		return svgTransform.MatchString(value)
	case "stroke-dasharray":
		return svgDashes.MatchString(value) && finiteNumbers(value)
	case "stroke-dashoffset":
		return svgNumber.MatchString(value) && finiteNumbers(value)
	case "font-size":
		return svgFontSize.MatchString(value) && finiteNumbers(value)
	}
	return true
}

// The values a drawing's cost is measured from (svgcost) are plain numbers,
// so that what is measured is what a renderer draws.
var (
	svgNumber   = regexp.MustCompile(`^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$`)
	svgDashes   = regexp.MustCompile(`^\s*(none|(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?([\s,]+(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)*)\s*$`)
	svgFontSize = regexp.MustCompile(`^\s*(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(px|pt|em|%)?\s*$`)
	svgNumbers  = regexp.MustCompile(`[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?`)
)

// finiteNumbers says whether every number in v is finite as a float64.
func finiteNumbers(v string) bool {
	for _, n := range svgNumbers.FindAllString(v, -1) {
		if _, err := strconv.ParseFloat(n, 64); err != nil {
			return false
		}
	}
	return true
}

// hasURL says whether v holds url( in any case.
func hasURL(v string) bool {
	for i := strings.IndexByte(v, '('); i >= 0; {
		if i >= 3 && strings.EqualFold(v[i-3:i], "url") {
			return true
		}
		j := strings.IndexByte(v[i+1:], '(')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// sanitizeSVG parses in and writes it out again holding only allowed
// elements, attributes and text, escaped. No DTD (so no entities beyond
// XML's five), no comments, no processing instructions survive; a document
// whose root is not an SVG <svg> is refused.
func sanitizeSVG(in []byte) ([]byte, error) {
	if len(in) > maxImageBytes {
		return nil, badImage("SVG of %d bytes", len(in))
	}
	if !utf8.Valid(in) {
		return nil, badImage("SVG is not UTF-8")
	}
	// Strict, no Entity map and no CharsetReader: an unknown entity or a
	// declared non-UTF-8 encoding is an error.
	dec := xml.NewDecoder(bytes.NewReader(in))
	var out bytes.Buffer
	out.Grow(len(in))
	var (
		depth    int      // elements open in the input
		skipAt   int      // depth of the dropped element being skipped, 0 if none
		kept     []string // names of the kept elements open in the output
		open     bool     // the last start tag written still lacks its '>'
		elements int
		roots    int
		meter    svgcost.Meter // what the kept elements ask of a renderer
	)
	closeTag := func() {
		if open {
			out.WriteByte('>')
			open = false
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, badImage("SVG: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			elements++
			if depth > maxSVGDepth || elements > maxSVGElements {
				return nil, badImage("SVG deeper than %d or more than %d elements", maxSVGDepth, maxSVGElements)
			}
			if depth == 1 {
				roots++
				if roots > 1 {
					return nil, badImage("SVG has more than one root element")
				}
				if t.Name.Space != svgNS || t.Name.Local != "svg" {
					return nil, badImage("SVG root is %q in namespace %q", t.Name.Local, t.Name.Space)
				}
			}
			if skipAt > 0 {
				continue
			}
			if t.Name.Space != svgNS || !svgElements[t.Name.Local] || (t.Name.Local == "svg" && depth > 1) {
				skipAt = depth
				continue
			}
			closeTag()
			out.WriteByte('<')
			out.WriteString(t.Name.Local)
			if depth == 1 {
				out.WriteString(` xmlns="` + svgNS + `"`)
			}
			attrs := t.Attr[:0:0]
			for i, a := range t.Attr {
				// Prefixed attributes (xlink:href, xml:base, xmlns:*) carry no drawing.
				if a.Name.Space != "" || !svgAttrs[a.Name.Local] || !svgValueOK(a.Name.Local, a.Value) {
					continue
				}
				if slices.ContainsFunc(t.Attr[:i], func(b xml.Attr) bool { return b.Name == a.Name }) {
					continue // a repeated attribute: the first stands
				}
				attrs = append(attrs, a)
				out.WriteByte(' ')
				out.WriteString(a.Name.Local)
				out.WriteString(`="`)
				escapeXML(&out, a.Value)
				out.WriteByte('"')
			}
			open = true
			kept = append(kept, t.Name.Local)
			meter.Start(t.Name.Local, attrs)
		case xml.EndElement:
			switch {
			case skipAt == depth:
				skipAt = 0
			case skipAt == 0:
				name := kept[len(kept)-1]
				kept = kept[:len(kept)-1]
				meter.End()
				if open {
					out.WriteString("/>")
					open = false
				} else {
					out.WriteString("</" + name + ">")
				}
			}
			depth--
		case xml.CharData:
			if skipAt == 0 && len(kept) > 0 && svgTextElements[kept[len(kept)-1]] {
				closeTag()
				escapeXML(&out, string(t))
				meter.Text(t)
			}
		case xml.Directive:
			// <!DOCTYPE ...> and <!ENTITY ...>: entity expansion and external
			// references are refused outright rather than ignored.
			return nil, badImage("SVG has a directive <!%.20s", t)
		case xml.Comment, xml.ProcInst:
		}
	}
	if roots != 1 || depth != 0 {
		return nil, badImage("SVG has no complete root element")
	}
	if out.Len() > maxImageBytes {
		return nil, badImage("SVG grows to %d bytes", out.Len())
	}
	// A few bytes can ask a renderer for without end: a tiny dash along a
	// long line is millions of dashes (svgcost).
	if c := meter.Cost(); c.Points > maxSVGPoints || !(c.Dashes <= maxSVGDashes) {
		return nil, badImage("SVG of %d points and %g dash segments", c.Points, c.Dashes)
	}
	return out.Bytes(), nil
}

// escapeXML writes s escaped for both text and double-quoted attribute
// values, keeping tabs and line breaks as character references so an
// attribute reads back unchanged.
func escapeXML(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&quot;"
		case '\'':
			esc = "&#39;"
		case '\t':
			esc = "&#9;"
		case '\n':
			esc = "&#10;"
		case '\r':
			esc = "&#13;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

var pngSig = []byte("\x89PNG\r\n\x1a\n")

// pngKeep are the chunks a still picture needs to look right. Text,
// ICC profiles, Exif and animation (APNG) chunks are left out: they add
// nothing to a plot and each is more parser for the window to run.
var pngKeep = map[string]bool{
	"IHDR": true, "PLTE": true, "IDAT": true, "IEND": true,
	"tRNS": true, "gAMA": true, "cHRM": true, "sRGB": true, "pHYs": true, "bKGD": true,
}

// pngHeader is IHDR's content.
type pngHeader struct {
	width, height       uint32
	depth, colour, lace byte
}

// checkPNG walks in's chunks (length bounds, CRCs, IHDR first, IEND last,
// nothing after it), inflates the image data to check it holds exactly the
// rows IHDR promises, and returns the PNG rebuilt from the kept chunks.
func checkPNG(in []byte) ([]byte, error) {
	if len(in) > maxImageBytes {
		return nil, badImage("PNG of %d bytes", len(in))
	}
	if !bytes.HasPrefix(in, pngSig) {
		return nil, badImage("no PNG signature")
	}
	out := bytes.NewBuffer(make([]byte, 0, len(in)))
	out.Write(pngSig)
	var (
		hdr      pngHeader
		idat     [][]byte
		plte     bool
		idatDone bool // a chunk other than IDAT followed the IDATs
		n        int
	)
	rest := in[len(pngSig):]
	for {
		if len(rest) < 12 {
			return nil, badImage("PNG truncated")
		}
		length := binary.BigEndian.Uint32(rest)
		if length > uint32(len(rest)-12) {
			return nil, badImage("PNG chunk longer than the file")
		}
		chunk := rest[:12+length]
		typ, data := string(chunk[4:8]), chunk[8:8+length]
		rest = rest[12+length:]
		for _, c := range []byte(typ) {
			if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
				return nil, badImage("PNG chunk type %q", typ)
			}
		}
		if crc32.ChecksumIEEE(chunk[4:8+length]) != binary.BigEndian.Uint32(chunk[8+length:]) {
			return nil, badImage("PNG chunk %s has a bad CRC", typ)
		}
		n++
		if (n == 1) != (typ == "IHDR") {
			return nil, badImage("PNG chunk %d is %s", n, typ)
		}
		if len(idat) > 0 && typ != "IDAT" {
			idatDone = true
		}
		switch typ {
		case "IHDR":
			var err error
			if hdr, err = parseIHDR(data); err != nil {
				return nil, err
			}
		case "PLTE":
			if plte || len(idat) > 0 || length == 0 || length%3 != 0 || length > 3*256 {
				return nil, badImage("PNG palette misplaced or malformed")
			}
			plte = true
		case "IDAT":
			if idatDone {
				return nil, badImage("PNG image data not contiguous")
			}
			idat = append(idat, data)
		case "IEND":
			if length != 0 || len(rest) != 0 {
				return nil, badImage("PNG has data after its end")
			}
		default:
			if typ[0] >= 'A' && typ[0] <= 'Z' {
				return nil, badImage("PNG critical chunk %s unknown", typ)
			}
		}
		if pngKeep[typ] {
			out.Write(chunk)
		}
		if typ == "IEND" {
			break
		}
	}
	if len(idat) == 0 || (hdr.colour == 3 && !plte) {
		return nil, badImage("PNG lacks image data or its palette")
	}
	if err := checkPNGRows(hdr, idat); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func parseIHDR(d []byte) (pngHeader, error) {
	if len(d) != 13 {
		return pngHeader{}, badImage("PNG header of %d bytes", len(d))
	}
	h := pngHeader{
		width: binary.BigEndian.Uint32(d[0:]), height: binary.BigEndian.Uint32(d[4:]),
		depth: d[8], colour: d[9], lace: d[12],
	}
	if h.width == 0 || h.height == 0 || h.width > maxPNGSide || h.height > maxPNGSide ||
		uint64(h.width)*uint64(h.height) > maxPNGPixels {
		return h, badImage("PNG of %d×%d pixels", h.width, h.height)
	}
	depths := map[byte]string{0: "\x01\x02\x04\x08\x10", 2: "\x08\x10", 3: "\x01\x02\x04\x08", 4: "\x08\x10", 6: "\x08\x10"}
	allowed, ok := depths[h.colour]
	if !ok || !strings.ContainsRune(allowed, rune(h.depth)) || d[10] != 0 || d[11] != 0 || h.lace > 1 {
		return h, badImage("PNG header: colour type %d, depth %d, methods %d %d %d", h.colour, h.depth, d[10], d[11], h.lace)
	}
	return h, nil
}

// checkPNGRows inflates the image data without keeping it: it must hold
// exactly the rows the header promises, each led by a known filter type,
// and end with a good checksum. So the window never meets a stream that
// inflates to more than the picture, and memory stays one buffer.
func checkPNGRows(h pngHeader, idat [][]byte) error {
	readers := make([]io.Reader, len(idat))
	for i, d := range idat {
		readers[i] = bytes.NewReader(d)
	}
	zr, err := zlib.NewReader(io.MultiReader(readers...))
	if err != nil {
		return badImage("PNG image data: %v", err)
	}
	defer zr.Close()
	r := bufio.NewReaderSize(zr, 64<<10)
	channels := map[byte]uint64{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[h.colour]
	bits := channels * uint64(h.depth)
	passes := [][4]uint64{{0, 0, 1, 1}} // x0, y0, dx, dy
	if h.lace == 1 {
		passes = [][4]uint64{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	}
	for _, p := range passes {
		w := (uint64(h.width) + p[2] - 1 - p[0]) / p[2]
		rows := (uint64(h.height) + p[3] - 1 - p[1]) / p[3]
		if uint64(h.width) <= p[0] || uint64(h.height) <= p[1] {
			continue // an empty pass has no rows, not even filter bytes
		}
		rowBytes := (w*bits + 7) / 8
		for range rows {
			f, err := r.ReadByte()
			if err != nil {
				return badImage("PNG image data ends early: %v", err)
			}
			if f > 4 {
				return badImage("PNG row filter %d", f)
			}
			if _, err := r.Discard(int(rowBytes)); err != nil {
				return badImage("PNG image data ends early: %v", err)
			}
		}
	}
	// Reading on to EOF makes zlib check the stream's checksum; any byte
	// before it is data the header did not account for.
	if _, err := r.ReadByte(); err != io.EOF {
		if err == nil {
			return badImage("PNG image data longer than its rows")
		}
		return badImage("PNG image data: %v", err)
	}
	return nil
}
