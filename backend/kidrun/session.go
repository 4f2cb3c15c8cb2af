package kidrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"kidcoder/sandbox"
)

// Emitter hears a session's runs: an Event* name and its payload. The
// window's event bus is one; tests use a fake.
type Emitter interface {
	Emit(event string, payload any)
}

// SessionRequest is one program to run in a Session.
type SessionRequest struct {
	// RunID names the run in all its events and in Input, Send and Stop.
	// The caller chooses it, so it can listen before the run starts.
	RunID     string
	Code      []byte
	Name      string
	Lang      string
	DataFiles []string
	Policy    sandbox.Policy // PolicyFor the settings
	Trace     bool           // Request.Trace
}

// ErrRunIDInUse is returned by Session.Run for the id of a run whose end
// has not been reported yet.
var ErrRunIDInUse = errors.New("that run id is in use")

// maxRunIDLen bounds a run id; a UUID is 36 characters.
const maxRunIDLen = 64

// CheckRunID accepts ids of 1 to 64 letters, digits, '-' and '_': an id
// comes back in every event and in logs, so it carries nothing else.
func CheckRunID(id string) error {
	if id == "" || len(id) > maxRunIDLen {
		return fmt.Errorf("a run id has 1 to %d characters, not %d", maxRunIDLen, len(id))
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("a run id has only letters, digits, '-' and '_': %q", id)
		}
	}
	return nil
}

// Session owns the runs of one window: their ids, the one run going, the
// star demo, the warm sandbox kept for the next run, and the one batcher of
// each run's output. Runs are live (they take keys and clicks) and emit
// through one Emitter.
type Session struct {
	ctx context.Context
	out Emitter
	// preloaded hears what a new warm sandbox holds in memory before a
	// program starts (Engine.WarmMemory); nil: nobody asks.
	preloaded func(bytes int64)

	runMu sync.Mutex // held by Run from start to finish: one Run at a time

	mu      sync.Mutex
	eng     *Engine
	current *sessionRun
	// live holds the ids of runs whose EventDone is not sent yet: a new run
	// may not take one, or the window could not tell the two apart.
	live map[string]bool
	// demo is the star demo waiting to be taken over; demoStarted keeps it
	// to the session's first ready engine.
	demo        *sessionRun
	demoStarted bool
	// prefer is what the next run probably needs (the open lesson's data
	// files and limits); lastMpl whether the last run used matplotlib.
	prefer    Warmth
	lastMpl   bool
	measuring bool
	closed    bool
}

// NewSession makes a session that emits to out; preloaded (may be nil)
// hears each warm sandbox's measured memory. It runs nothing until SetEngine.
func NewSession(ctx context.Context, out Emitter, preloaded func(bytes int64)) *Session {
	return &Session{ctx: ctx, out: out, preloaded: preloaded, live: map[string]bool{}, prefer: Warmth{Live: true}}
}

// SetEngine gives the session the engine its runs use from now on; nil
// while none is ready. An engine it replaces stops keeping a warm sandbox
// (a run still going on it goes on).
func (s *Session) SetEngine(eng *Engine) {
	s.mu.Lock()
	old := s.eng
	s.eng = eng
	s.mu.Unlock()
	if old != nil && old != eng {
		old.Close()
	}
}

// Engine is the engine in use; nil while none is ready.
func (s *Session) Engine() *Engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng
}

// StartDemo starts the star demo through the real sandbox, once per
// session, under DemoRunID. The window may not be listening yet: what the
// run does is held, in order, until a Run with DemoRunID takes it over.
// It reports whether the demo started now.
func (s *Session) StartDemo(code []byte, lang string) bool {
	s.mu.Lock()
	eng := s.eng
	if eng == nil || s.demoStarted || s.closed {
		s.mu.Unlock()
		return false
	}
	s.demoStarted = true
	s.mu.Unlock()
	sr := &sessionRun{s: s, id: DemoRunID}
	run, err := eng.Start(s.ctx, Request{Code: code, Name: "star.py", Lang: lang, Interactive: true, Live: true}, sr.observer())
	if err != nil {
		return false
	}
	sr.run = run
	s.mu.Lock()
	s.demo = sr
	s.live[sr.id] = true
	s.mu.Unlock()
	go sr.finished()
	return true
}

// DemoID is DemoRunID while the star demo waits to be taken over, else "".
func (s *Session) DemoID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.demo != nil {
		return s.demo.id
	}
	return ""
}

// CurrentID is the id of the run going now, "" for none.
func (s *Session) CurrentID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != nil {
		return s.current.id
	}
	return ""
}

// Run starts the child's program under req.RunID; a run already going is
// stopped first. The id of the waiting star demo takes that run over
// instead, with all it did so far; any other run ends the demo unseen.
func (s *Session) Run(req SessionRequest) error {
	if err := CheckRunID(req.RunID); err != nil {
		return err
	}
	if len(req.Code) > MaxCode {
		return errors.New("the program is larger than 1 MiB")
	}
	// One Run at a time from here on: two at once would each see no run
	// going, and the one that started first could never be stopped.
	s.runMu.Lock()
	defer s.runMu.Unlock()
	id := req.RunID
	s.mu.Lock()
	if d := s.demo; d != nil && d.id == id {
		prev := s.current
		s.demo, s.current = nil, d
		s.mu.Unlock()
		if prev != nil {
			prev.run.Stop()
		}
		d.claim()
		return nil
	}
	if s.live[id] {
		s.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrRunIDInUse, id)
	}
	eng, prev, demo := s.eng, s.current, s.demo
	s.current, s.demo = nil, nil
	if demo != nil {
		delete(s.live, demo.id) // its events stay held: nobody sees them
	}
	s.live[id] = true
	s.mu.Unlock()
	if demo != nil {
		go demo.run.Stop()
	}
	if prev != nil {
		prev.run.Stop()
		<-prev.run.Done()
	}
	if eng == nil {
		s.release(id)
		return fmt.Errorf("%w: no sandbox is ready", sandbox.ErrUnavailable)
	}
	sr := &sessionRun{s: s, id: id, claimed: true}
	policy := req.Policy
	run, err := eng.Start(s.ctx, Request{
		Code: req.Code, Name: req.Name, Lang: req.Lang, Interactive: true, Live: true, Policy: &policy,
		DataFiles: req.DataFiles, Trace: req.Trace,
	}, sr.observer())
	if err != nil {
		s.release(id)
		return err
	}
	sr.run = run
	s.mu.Lock()
	s.current = sr
	s.lastMpl = UsesMatplotlib(req.Code)
	s.prefer.DataFiles, s.prefer.Policy = append([]string(nil), req.DataFiles...), policy
	s.mu.Unlock()
	s.keepWarm()
	go sr.finished()
	return nil
}

// MaxCode bounds a program's size.
const MaxCode = 1 << 20

// Prefer says what the next run probably needs: the open lesson's data
// files, whether it uses matplotlib, and the limits in force. The session
// keeps a warm sandbox for it (docs/runner-protocol.md, "Warm runs").
func (s *Session) Prefer(dataFiles []string, matplotlib bool, policy sandbox.Policy) {
	s.mu.Lock()
	s.prefer = Warmth{Live: true, Matplotlib: matplotlib, DataFiles: append([]string(nil), dataFiles...), Policy: policy}
	s.mu.Unlock()
	s.keepWarm()
}

// keepWarm keeps a sandbox started ahead for the next Run: live, under the
// preferred limits, with the data files, and with matplotlib loaded when
// the open lesson or the last run uses it.
func (s *Session) keepWarm() {
	s.mu.Lock()
	eng, w := s.eng, s.prefer
	w.Matplotlib = w.Matplotlib || s.lastMpl
	start := eng != nil && !s.measuring && !s.closed && s.preloaded != nil
	s.measuring = s.measuring || start
	s.mu.Unlock()
	if eng == nil {
		return
	}
	eng.KeepWarm(w)
	if start {
		go s.measureWarm(eng)
	}
}

// measureWarm waits (a while at most) for the warm sandbox to be ready and
// tells what it holds in memory, so "About the sandbox" shows how much of
// the memory limit the child's program has.
func (s *Session) measureWarm(eng *Engine) {
	defer func() {
		s.mu.Lock()
		s.measuring = false
		s.mu.Unlock()
	}()
	var got int64
	for range 300 {
		if got = eng.WarmMemory(); got > 0 {
			break
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-s.ctx.Done():
			return
		}
	}
	s.mu.Lock()
	same := s.eng == eng
	s.mu.Unlock()
	if got > 0 && same {
		s.preloaded(got)
	}
}

// Input gives the waiting program one line the child typed.
func (s *Session) Input(runID, line string) error {
	r, err := s.find(runID)
	if err != nil {
		return err
	}
	return r.Input(line)
}

// Send gives the running program a key, pointer, close or dialog answer
// event. An event the program is too busy to take is dropped, as a flood
// of key repeats is.
func (s *Session) Send(runID string, ev Event) error {
	r, err := s.find(runID)
	if err != nil {
		return err
	}
	if err := r.Send(ev); err != nil && !errors.Is(err, sandbox.ErrControlFull) {
		return err
	}
	return nil
}

// Stop ends the run at once; a run already over is stopped already.
func (s *Session) Stop(runID string) {
	if r, err := s.find(runID); err == nil {
		r.Stop()
	}
}

func (s *Session) find(runID string) (*Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current == nil || s.current.id != runID {
		return nil, fmt.Errorf("run %q is not running", runID)
	}
	return s.current.run, nil
}

// release frees a run id once its end is reported, or when it never started.
func (s *Session) release(id string) {
	s.mu.Lock()
	delete(s.live, id)
	s.mu.Unlock()
}

// Close stops the session's runs and its warm sandbox, and waits for the runs' ends.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	eng, cur, demo := s.eng, s.current, s.demo
	s.demo = nil
	s.mu.Unlock()
	if eng != nil {
		eng.Close()
	}
	for _, r := range []*sessionRun{demo, cur} {
		if r != nil {
			r.run.Stop()
			<-r.run.Done()
		}
	}
}

// sessionRun is one run of a session and the way its events go out: as
// they happen, or, while it is the unclaimed star demo, held in order.
type sessionRun struct {
	s   *Session
	id  string
	run *Run

	mu      sync.Mutex
	claimed bool
	held    []func()
}

// observer is the run's Observer.
func (r *sessionRun) observer() *runEvents { return &runEvents{r} }

// send emits now, or holds the event while the run is an unclaimed demo.
func (r *sessionRun) send(event string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.claimed {
		r.held = append(r.held, func() { r.s.out.Emit(event, payload) })
		return
	}
	r.s.out.Emit(event, payload)
}

// claim sends what the demo did so far; later events go out as they happen.
func (r *sessionRun) claim() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.claimed = true
	for _, f := range r.held {
		f()
	}
	r.held = nil
}

// finished reports the result and forgets the run; only then may its id be used again.
func (r *sessionRun) finished() {
	res := r.run.Wait()
	if o := res.Outcome; o != nil && o.Key == setupFailed {
		// The app's log keeps what the child's message says in their words.
		log.Printf("run %s: the sandbox could not be set up at step %s: %s", r.id, o.Values["step"], o.Values["error"])
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	emit := func() {
		s := r.s
		s.mu.Lock()
		if s.current == r {
			s.current = nil
		}
		delete(s.live, r.id)
		s.mu.Unlock()
		s.out.Emit(EventDone, DoneEvent{RunID: r.id, Result: res})
	}
	if !r.claimed {
		r.held = append(r.held, emit)
		return
	}
	emit()
}

// runEvents turns a run's Observer calls into its events.
type runEvents struct{ r *sessionRun }

func (e *runEvents) Output(stream, text string) {
	e.r.send(EventOutput, OutputEvent{RunID: e.r.id, Stream: stream, Text: text})
}

func (e *runEvents) Waiting(prompt string) {
	e.r.send(EventWaiting, WaitingEvent{RunID: e.r.id, Prompt: prompt})
}

func (e *runEvents) InputDone() {
	e.r.send(EventInputDone, InputDoneEvent{RunID: e.r.id})
}

func (e *runEvents) Live(frame json.RawMessage) {
	e.r.send(EventLive, LiveEvent{RunID: e.r.id, Frame: frame})
}
