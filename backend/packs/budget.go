package packs

import (
	"errors"
	"fmt"
	"time"

	"kidcoder/backend/kidrun"
)

// Bounds on an exercise's check (docs/packs.md, "One budget per check"):
// all of its runs together get CheckBudget plus the time their events last,
// so one press of Check ends within two minutes whatever a pack declares.
const (
	// CheckBudget is the time all of an exercise's check runs get together,
	// besides the time their events files last.
	CheckBudget = 60 * time.Second
	// MaxEventsTime bounds how long the events of an exercise's checks last
	// together (each run playing its file counts it once), at import and
	// again in the budget of each check.
	MaxEventsTime = 60 * time.Second
	// MaxCheckRuns bounds the runs an exercise's checks need: one per
	// different stdin and events file, and one for all its source checks.
	MaxCheckRuns = 10
)

// ErrCheckBounds is returned, joined with the *FieldError naming the field,
// for an exercise whose checks need more runs or longer events than
// MaxCheckRuns and MaxEventsTime allow.
var ErrCheckBounds = errors.New("the checks need more runs or time than one exercise may have")

// boundError is a *FieldError that also says it is ErrCheckBounds, so the
// window can word it in the child's language.
type boundError struct{ *FieldError }

func (e boundError) Unwrap() []error { return []error{e.FieldError, ErrCheckBounds} }

// bound adds a broken rule of the checks' budget.
func (v *validator) bound(field, format string, args ...any) {
	if len(v.errs) < 100 {
		v.errs = append(v.errs, boundError{&FieldError{File: v.file, Field: field, Msg: fmt.Sprintf(format, args...)}})
	}
}

// checkRun is one sandboxed run an exercise's checks make: those that share
// a stdin and an events file share one; source checks share one that only
// parses the code.
type checkRun struct {
	stdin, events string
	source        bool
	checks        []int // the checks it decides, in order
	code          []int // its code checks, in order: their scripts ride along
}

// planRuns lists the runs ex's checks need, in the order they are made:
// the program's runs by stdin and events, then the source run.
func planRuns(ex *Exercise) []*checkRun {
	groups := map[string]*checkRun{}
	var source *checkRun
	for i, c := range ex.Checks {
		stdin, events := ex.Stdin, ""
		switch c.Type {
		case CheckSource:
			if source == nil {
				source = &checkRun{source: true}
			}
			source.checks = append(source.checks, i)
			continue
		case CheckOutput:
			stdin, events = c.Stdin, c.Events
		}
		key := stdin + "\x00" + events
		g := groups[key]
		if g == nil {
			g = &checkRun{stdin: stdin, events: events}
			groups[key] = g
		}
		g.checks = append(g.checks, i)
		if c.Type == CheckCode {
			g.code = append(g.code, i)
		}
	}
	var out []*checkRun
	for _, key := range sortedKeys(groups) {
		out = append(out, groups[key])
	}
	if source != nil {
		out = append(out, source)
	}
	return out
}

// runsRule is the manifest's rule on the number of runs.
func (v *validator) runsRule(f string, ex *Exercise) {
	if n := len(planRuns(ex)); n > MaxCheckRuns {
		v.bound(f+".checks", "the checks need %d runs (one per different stdin and events file, one for the source checks); at most %d", n, MaxCheckRuns)
	}
}

// timelineLength is how long a timeline plays: until its last event, the
// drawing's close.
func timelineLength(tl kidrun.Timeline) time.Duration {
	if len(tl) == 0 {
		return 0
	}
	return tl[len(tl)-1].At
}

// eventsRule refuses an exercise whose runs' events last longer than
// MaxEventsTime together: a check's run lasts about as long as its events.
func (p *Pack) eventsRule(label string) []error {
	var errs []error
	for i := range p.Manifest.Exercises {
		ex := &p.Manifest.Exercises[i]
		var total time.Duration
		for _, r := range planRuns(ex) {
			if r.events == "" {
				continue
			}
			tl, err := kidrun.ParseTimeline(p.files[r.events])
			if err != nil {
				continue // crossCheck names the bad line
			}
			total += timelineLength(tl)
		}
		if total > MaxEventsTime {
			errs = append(errs, boundError{&FieldError{File: label, Field: fmt.Sprintf("exercises[%d].checks", i),
				Msg: fmt.Sprintf("the events files of its checks last %s together (each run playing one counts it); at most %s", total.Round(time.Millisecond), MaxEventsTime)}})
		}
	}
	return errs
}
