package packs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"kidcoder/backend/lessons"
	"kidcoder/backend/text"
)

// FormatVersion is the manifest format this package reads and writes.
const FormatVersion = 1

// ManifestName is the manifest's name at the root of a pack.
const ManifestName = "pack.json"

// Manifest is pack.json (docs/packs.md, docs/pack.schema.json).
type Manifest struct {
	Format      int        `json:"format"`
	ID          string     `json:"id"`
	Version     string     `json:"version"`
	Title       text.Text  `json:"title"`
	Description text.Text  `json:"description"`
	Author      string     `json:"author"`
	Exercises   []Exercise `json:"exercises"`
	// Files lists every other file of a built pack; build fills it in and
	// import verifies it. In a source folder it is ignored.
	Files []FileEntry `json:"files,omitempty"`
}

// FileEntry is one file of a built pack.
type FileEntry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Exercise is one task of a pack. Paths are relative to the pack's root.
type Exercise struct {
	ID           string      `json:"id"`
	Title        text.Text   `json:"title"`
	Instructions text.Text   `json:"instructions"` // Markdown file per language
	Starter      string      `json:"starter"`
	Solution     string      `json:"solution,omitempty"` // never installed for the child
	Data         []string    `json:"data,omitempty"`
	Stdin        string      `json:"stdin,omitempty"` // typed into the run that turtle and code checks look at
	Hints        []text.Text `json:"hints,omitempty"`
	Checks       []Check     `json:"checks"`
}

// Check types.
const (
	CheckOutput = "output"
	CheckTurtle = "turtle"
	CheckCode   = "code"
	CheckSource = "source"
)

// Output match modes.
const (
	MatchExact      = "exact"
	MatchWhitespace = "whitespace"
	MatchContains   = "contains"
	MatchRegex      = "regex"
	MatchNumbers    = "numbers"
)

// Turtle rules.
const (
	TurtleMinSegments   = "min_segments"
	TurtleClosedShape   = "closed_shape"
	TurtleFilledShape   = "filled_shape"
	TurtleColorsUsed    = "colors_used"
	TurtleFinalPosition = "final_position"
	TurtleFinalHeading  = "final_heading"
	TurtlePolygon       = "polygon"
)

// Source rules.
const (
	SourceForLoop         = "for_loop"
	SourceWhileLoop       = "while_loop"
	SourceDefinesFunction = "defines_function"
	SourceCalls           = "calls"
	SourceNotCalls        = "not_calls"
)

// Check is one automatic check of an exercise. Which fields apply depends
// on Type; docs/packs.md lists them.
type Check struct {
	Type    string    `json:"type"`
	Message text.Text `json:"message"` // shown to the child when the check fails

	// output
	Stdin     string  `json:"stdin,omitempty"`
	Expect    string  `json:"expect,omitempty"`
	Match     string  `json:"match,omitempty"` // default exact
	Tolerance float64 `json:"tolerance,omitempty"`

	// turtle and source
	Rule    string   `json:"rule,omitempty"`
	Count   int      `json:"count,omitempty"`
	Sides   int      `json:"sides,omitempty"`
	Angle   *float64 `json:"angle,omitempty"`
	X       *float64 `json:"x,omitempty"`
	Y       *float64 `json:"y,omitempty"`
	Heading *float64 `json:"heading,omitempty"`
	Colors  []string `json:"colors,omitempty"`
	Color   string   `json:"color,omitempty"`
	Name    string   `json:"name,omitempty"`

	// code
	File string `json:"file,omitempty"`

	// Events names a JSONL timeline in the pack (docs/contracts.md §3)
	// played into an output check's run, which is then live: keys, clicks
	// and answers for a game.
	Events string `json:"events,omitempty"`
}

// Bounds on a pack. A pack is untrusted input: everything is bounded before
// it is read, and bounded again while it is read.
const (
	MaxPackBytes      = 64 << 20 // the .kidpack file
	MaxManifestBytes  = 1 << 20
	MaxFileBytes      = 8 << 20
	MaxTotalBytes     = 64 << 20 // all entries uncompressed
	MaxEntries        = 1000
	MaxRatio          = 100 // uncompressed/compressed, for entries over ratioFloor
	ratioFloor        = 64 << 10
	MaxExercises      = 200
	MaxChecks         = 50
	MaxHints          = 20
	MaxDataPerEx      = 32
	maxTextRunes      = 500
	maxLongTextRunes  = 4000
	maxPathBytes      = 200
	maxPathDepth      = 8
	maxExpectBytes    = 64 << 10
	maxPatternBytes   = 1000
	maxExerciseIDLen  = 48
	maxPackIDLen      = 64
	maxVersionElement = 6
)

var (
	packIDRe     = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	exerciseIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	versionRe    = regexp.MustCompile(`^[0-9]{1,6}\.[0-9]{1,6}\.[0-9]{1,6}$`)
	shaRe        = regexp.MustCompile(`^[0-9a-f]{64}$`)
	colorRe      = regexp.MustCompile(`^#[0-9a-f]{6}$`)
	identRe      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
)

// ParseManifest decodes pack.json strictly: unknown fields are errors, so a
// teacher's typo ("tolerence") is caught rather than silently ignored.
// file names the manifest in errors.
func ParseManifest(data []byte, file string) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, &FieldError{File: file, Field: "(file)", Msg: fmt.Sprintf("manifest is larger than %d bytes", MaxManifestBytes)}
	}
	var head struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, &FieldError{File: file, Field: "(file)", Msg: "not valid JSON: " + err.Error()}
	}
	if f, err := strconv.Atoi(string(head.Format)); err == nil && f > FormatVersion {
		return nil, fmt.Errorf("%s: format %d: %w (this version reads format %d)", file, f, ErrNewerFormat, FormatVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		field, msg := jsonErrField(err)
		return nil, &FieldError{File: file, Field: field, Msg: msg}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &FieldError{File: file, Field: "(file)", Msg: "extra data after the JSON object"}
	}
	return &m, nil
}

func jsonErrField(err error) (field, msg string) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return te.Field, fmt.Sprintf("must be a JSON %s, not %s", jsonKind(te.Type.Kind().String()), te.Value)
	}
	if s := err.Error(); strings.Contains(s, "unknown field") {
		_, name, _ := strings.Cut(s, "unknown field ")
		return name, "unknown field (a typo?)"
	}
	return "(file)", err.Error()
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "slice":
		return "array"
	case "struct", "map":
		return "object"
	case "bool":
		return "boolean"
	}
	return "number"
}

// validator gathers every broken rule so a teacher sees them all at once.
type validator struct {
	file string
	errs []error
}

func (v *validator) add(field, format string, args ...any) {
	if len(v.errs) < 100 {
		v.errs = append(v.errs, &FieldError{File: v.file, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
}

// Validate checks every rule of the manifest that does not need the files'
// content (docs/pack.schema.json plus the cross-field rules: unique ids,
// referenced files listed). built requires the files list of a built pack.
// The result joins one *FieldError per broken rule.
func (m *Manifest) Validate(file string, built bool) error {
	v := &validator{file: file}
	if m.Format != FormatVersion {
		v.add("format", "must be %d", FormatVersion)
	}
	if len(m.ID) > maxPackIDLen || !packIDRe.MatchString(m.ID) {
		v.add("id", "must be 1–%d lowercase letters, digits, '.', '_' or '-', e.g. \"school.turtle-basics\"", maxPackIDLen)
	}
	if !versionRe.MatchString(m.Version) {
		v.add("version", "must look like 1.0.0")
	}
	v.text("title", m.Title, maxTextRunes)
	v.text("description", m.Description, maxLongTextRunes)
	v.plain("author", m.Author, maxTextRunes)
	if len(m.Exercises) == 0 || len(m.Exercises) > MaxExercises {
		v.add("exercises", "must hold 1–%d exercises", MaxExercises)
	}
	ids := map[string]bool{}
	for i, ex := range m.Exercises {
		v.exercise(fmt.Sprintf("exercises[%d]", i), ex, ids)
	}
	if built || len(m.Files) > 0 {
		v.files(m, built)
	}
	return errors.Join(v.errs...)
}

func (v *validator) text(field string, t text.Text, max int) {
	v.plain(field+".zh", t.Zh, max)
	v.plain(field+".en", t.En, max)
}

func (v *validator) plain(field, s string, max int) {
	switch {
	case strings.TrimSpace(s) == "":
		v.add(field, "must not be empty")
	case !utf8.ValidString(s):
		v.add(field, "must be valid UTF-8")
	case utf8.RuneCountInString(s) > max:
		v.add(field, "must be at most %d characters", max)
	}
}

func (v *validator) path(field, p, ext string) {
	if err := CheckEntryName(p); err != nil {
		v.add(field, "%q: %v", p, err)
		return
	}
	if ext != "" && !strings.HasSuffix(p, ext) {
		v.add(field, "%q must end in %s", p, ext)
	}
}

func (v *validator) exercise(f string, ex Exercise, ids map[string]bool) {
	switch {
	case len(ex.ID) > maxExerciseIDLen || !exerciseIDRe.MatchString(ex.ID) || windowsReserved(ex.ID):
		v.add(f+".id", "must be 1–%d lowercase letters, digits, '_' or '-' (it becomes the file name ID.py)", maxExerciseIDLen)
	case ids[ex.ID]:
		v.add(f+".id", "%q is used by another exercise", ex.ID)
	}
	ids[ex.ID] = true
	v.text(f+".title", ex.Title, maxTextRunes)
	v.path(f+".instructions.zh", ex.Instructions.Zh, ".md")
	v.path(f+".instructions.en", ex.Instructions.En, ".md")
	v.path(f+".starter", ex.Starter, ".py")
	if ex.Solution != "" {
		v.path(f+".solution", ex.Solution, ".py")
	}
	if len(ex.Data) > MaxDataPerEx {
		v.add(f+".data", "at most %d data files", MaxDataPerEx)
	}
	for i, d := range ex.Data {
		df := fmt.Sprintf("%s.data[%d]", f, i)
		v.path(df, d, "")
		base := path.Base(d)
		if strings.HasSuffix(base, ".py") || base == ex.ID+".md" {
			v.add(df, "%q would be taken for a lesson or its instructions; rename it", d)
		} else if err := lessons.CheckName(base); err != nil {
			v.add(df, "%q can't be a file in a lessons folder: %s", d, lessons.ProblemOf(err).In(text.En))
		}
	}
	if len(ex.Stdin) > maxExpectBytes {
		v.add(f+".stdin", "at most %d bytes", maxExpectBytes)
	}
	if len(ex.Hints) > MaxHints {
		v.add(f+".hints", "at most %d hints", MaxHints)
	}
	for i, h := range ex.Hints {
		v.text(fmt.Sprintf("%s.hints[%d]", f, i), h, maxLongTextRunes)
	}
	if len(ex.Checks) == 0 || len(ex.Checks) > MaxChecks {
		v.add(f+".checks", "must hold 1–%d checks", MaxChecks)
	}
	for i, c := range ex.Checks {
		v.check(fmt.Sprintf("%s.checks[%d]", f, i), c)
	}
	v.runsRule(f, &ex)
}

func finite(p *float64) bool { return p != nil && !math.IsNaN(*p) && !math.IsInf(*p, 0) }

func (v *validator) check(f string, c Check) {
	v.text(f+".message", c.Message, maxLongTextRunes)
	if c.Tolerance < 0 || math.IsNaN(c.Tolerance) || math.IsInf(c.Tolerance, 0) {
		v.add(f+".tolerance", "must be a number ≥ 0")
	}
	switch c.Type {
	case CheckOutput:
		if len(c.Stdin) > maxExpectBytes || len(c.Expect) > maxExpectBytes {
			v.add(f, "stdin and expect must be at most %d bytes each", maxExpectBytes)
		}
		if c.Events != "" {
			v.path(f+".events", c.Events, ".jsonl")
		}
		switch c.Match {
		case "", MatchExact, MatchWhitespace, MatchContains, MatchNumbers:
		case MatchRegex:
			if len(c.Expect) > maxPatternBytes {
				v.add(f+".expect", "a regex must be at most %d bytes", maxPatternBytes)
			} else if _, err := regexp.Compile(c.Expect); err != nil {
				v.add(f+".expect", "not a valid regular expression: %v", err)
			}
		default:
			v.add(f+".match", "must be one of exact, whitespace, contains, regex, numbers")
		}
	case CheckTurtle:
		switch c.Rule {
		case TurtleMinSegments:
			if c.Count < 1 {
				v.add(f+".count", "must be at least 1")
			}
		case TurtleClosedShape:
		case TurtleFilledShape:
			v.optColor(f+".color", c.Color)
		case TurtleColorsUsed:
			if len(c.Colors) == 0 || len(c.Colors) > 32 {
				v.add(f+".colors", "must list 1–32 colours")
			}
			for i, col := range c.Colors {
				v.optColor(fmt.Sprintf("%s.colors[%d]", f, i), col)
			}
		case TurtleFinalPosition:
			if !finite(c.X) || !finite(c.Y) {
				v.add(f, "needs numbers x and y")
			}
		case TurtleFinalHeading:
			if !finite(c.Heading) {
				v.add(f+".heading", "needs a number of degrees")
			}
		case TurtlePolygon:
			if c.Sides < 3 || c.Sides > 360 {
				v.add(f+".sides", "must be 3–360")
			}
			if c.Angle != nil && (!finite(c.Angle) || *c.Angle <= 0 || *c.Angle >= 360) {
				v.add(f+".angle", "must be an interior angle between 0 and 360 degrees")
			}
		default:
			v.add(f+".rule", "must be one of min_segments, closed_shape, filled_shape, colors_used, final_position, final_heading, polygon")
		}
	case CheckSource:
		switch c.Rule {
		case SourceForLoop, SourceWhileLoop:
		case SourceDefinesFunction:
			if c.Name != "" && !identRe.MatchString(c.Name) {
				v.add(f+".name", "must be a Python name")
			}
		case SourceCalls, SourceNotCalls:
			if len(c.Name) > 100 || !identRe.MatchString(c.Name) {
				v.add(f+".name", "must be a Python name such as input or turtle.forward")
			}
		default:
			v.add(f+".rule", "must be one of for_loop, while_loop, defines_function, calls, not_calls")
		}
	case CheckCode:
		v.path(f+".file", c.File, ".py")
	default:
		v.add(f+".type", "must be one of output, turtle, code, source")
	}
	if c.Type != CheckOutput && c.Events != "" {
		v.add(f+".events", "only an output check plays events")
	}
}

func (v *validator) optColor(f, c string) {
	if c != "" && !colorRe.MatchString(c) {
		v.add(f, "must be a colour like #ff0000 (lowercase)")
	}
}

func (v *validator) files(m *Manifest, built bool) {
	if built && len(m.Files) == 0 {
		v.add("files", "a built pack must list its files")
	}
	if len(m.Files) > MaxEntries {
		v.add("files", "at most %d files", MaxEntries)
	}
	seen := map[string]bool{}
	for i, fe := range m.Files {
		f := fmt.Sprintf("files[%d]", i)
		v.path(f+".path", fe.Path, "")
		if fe.Path == ManifestName {
			v.add(f+".path", "the manifest does not list itself")
		}
		key := strings.ToLower(fe.Path)
		if seen[key] {
			v.add(f+".path", "%q is listed twice", fe.Path)
		}
		seen[key] = true
		if fe.Size < 0 || fe.Size > MaxFileBytes {
			v.add(f+".size", "must be 0–%d", MaxFileBytes)
		}
		if !shaRe.MatchString(fe.SHA256) {
			v.add(f+".sha256", "must be 64 lowercase hex digits")
		}
	}
	for field, p := range m.referenced() {
		if !seen[strings.ToLower(p)] {
			v.add(field, "%q is not in the files list", p)
		}
	}
}

// referenced maps each manifest field that names a file to that file.
func (m *Manifest) referenced() map[string]string {
	out := map[string]string{}
	for i, ex := range m.Exercises {
		f := fmt.Sprintf("exercises[%d]", i)
		out[f+".instructions.zh"] = ex.Instructions.Zh
		out[f+".instructions.en"] = ex.Instructions.En
		out[f+".starter"] = ex.Starter
		if ex.Solution != "" {
			out[f+".solution"] = ex.Solution
		}
		for j, d := range ex.Data {
			out[fmt.Sprintf("%s.data[%d]", f, j)] = d
		}
		for j, c := range ex.Checks {
			if c.Type == CheckCode {
				out[fmt.Sprintf("%s.checks[%d].file", f, j)] = c.File
			}
			if c.Events != "" {
				out[fmt.Sprintf("%s.checks[%d].events", f, j)] = c.Events
			}
		}
	}
	return out
}

// ReferencedFiles lists every file the manifest names, sorted, without duplicates.
func (m *Manifest) ReferencedFiles() []string {
	set := map[string]bool{}
	for _, p := range m.referenced() {
		if p != "" {
			set[p] = true
		}
	}
	return sortedKeys(set)
}

// CheckEntryName rejects a path inside a pack that is not a plain relative
// path of portable names: it is what keeps a pack from ever writing outside
// its folder, whatever the OS.
func CheckEntryName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty name", ErrUnsafePath)
	case !utf8.ValidString(name):
		return ErrBadName
	case strings.ContainsRune(name, '\\'):
		return fmt.Errorf("%w: backslash in name", ErrUnsafePath)
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("%w: absolute path", ErrUnsafePath)
	case len(name) >= 2 && name[1] == ':' && (name[0]|0x20) >= 'a' && (name[0]|0x20) <= 'z':
		return fmt.Errorf("%w: drive letter", ErrUnsafePath)
	case len(name) > maxPathBytes:
		return fmt.Errorf("%w: longer than %d bytes", ErrUnsafePath, maxPathBytes)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return ErrBadName
		}
	}
	elems := strings.Split(name, "/")
	if len(elems) > maxPathDepth {
		return fmt.Errorf("%w: nested deeper than %d folders", ErrUnsafePath, maxPathDepth)
	}
	for _, e := range elems {
		switch {
		case e == "..":
			return fmt.Errorf("%w: \"..\" leaves the pack", ErrUnsafePath)
		case e == "" || e == ".":
			return fmt.Errorf("%w: empty path element", ErrUnsafePath)
		case strings.HasPrefix(e, "."):
			return fmt.Errorf("%w: hidden name %q", ErrUnsafePath, e)
		case strings.HasSuffix(e, " ") || strings.HasSuffix(e, "."):
			return fmt.Errorf("%w: %q ends in a space or dot", ErrUnsafePath, e)
		case strings.ContainsAny(e, `:*?"<>|`):
			return fmt.Errorf("%w: %q holds a character Windows forbids", ErrUnsafePath, e)
		case windowsReserved(e):
			return fmt.Errorf("%w: %q is a reserved device name", ErrUnsafePath, e)
		}
		for _, r := range e {
			if !unicode.IsPrint(r) {
				return ErrBadName
			}
		}
	}
	return nil
}

// windowsReserved is the lessons folder's list of Windows device names.
func windowsReserved(e string) bool { return lessons.ReservedName(e) }

// CompareVersions orders "MAJOR.MINOR.PATCH" strings numerically: -1, 0 or 1.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
