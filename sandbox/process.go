package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds on what the host reads from a run, whatever the policy says.
const (
	maxFrameBytes      = 16 << 20
	maxFrameTotalBytes = 64 << 20
	// frameOverhead is what every frame counts against maxFrameTotalBytes
	// besides its payload: an empty frame costs the host a read and a
	// handler call all the same.
	frameOverhead = 64
	// maxFrames bounds the frames the host reads from one run, however
	// small: the host's work for frames is bounded by count as by bytes.
	maxFrames   = 1 << 19
	sampleEvery = 50 * time.Millisecond
	// stopGrace is how long a stopped run may take to end by itself; then
	// the host kills it, so Stop ends any run within about this long.
	stopGrace        = 150 * time.Millisecond
	maxControlLine   = 4 << 10
	controlWriteWait = 50 * time.Millisecond
	// killWait is exec.Cmd.WaitDelay: how long Wait trusts our own kill of
	// the namespace before it SIGKILLs bwrap itself.
	killWait = 2 * time.Second
	// nearLimit is how close to a limit (as a fraction) the host must have
	// seen a run get before it names that limit as the cause of its end.
	nearLimit = 0.9
)

// Why the host ended a run; the cause of the run's context.
var (
	errTimeout     = errors.New("sandbox: time limit")
	errOutputLimit = errors.New("sandbox: output limit")
	errStopped     = errors.New("sandbox: stopped")
	errMemoryLimit = errors.New("sandbox: memory limit")
	errCPULimit    = errors.New("sandbox: CPU limit")
	errIdleLimit   = errors.New("sandbox: waited for input too long")
	errFileLimit   = errors.New("sandbox: scratch file limit")
)

// Process is a running sandboxed program. Its methods are safe to call from
// any goroutine; Wait may be called more than once.
type Process struct {
	spec   Spec
	h      atomic.Pointer[Handler] // a warm run's is set by Release
	cmd    *exec.Cmd
	sys    *sysState
	cancel context.CancelCauseFunc
	ctx    context.Context

	stdin   *os.File
	control *os.File   // host end of the sandbox's fd 4; nil without Frames
	ctlMu   sync.Mutex // one control line at a time
	// stdinPeek is a live run's own copy of stdin's read end, so the host
	// can still see what is unread there after it closed its write end.
	stdinPeek *os.File
	lastInput atomic.Int64 // Unix nanoseconds of the host's last input to the run
	// reads are the host's read ends of the run's stdout, stderr and frame
	// pipes: what waits unread in them, the run wrote and the host owes it.
	reads []*os.File

	events chan event
	wake   chan struct{} // Stop was asked for
	exited chan struct{} // the process (bwrap) was reaped
	done   chan struct{} // everything finished; outcome is final
	// released is closed when a warm run's program was handed over (at
	// once for other runs); start is then the moment it was.
	released    chan struct{}
	releaseOnce sync.Once
	start       time.Time

	// outMu orders output and frames into events and guards the byte
	// counts; it is never held while calling the Handler, which may call
	// Stop (which takes mu).
	outMu     sync.Mutex
	outBytes  int64
	truncated bool
	outcome   Outcome

	mu      sync.Mutex
	stopReq bool
	peak    int64
	cpuSeen time.Duration // largest CPU time sampled for one process
	cpuRun  time.Duration // the run's total CPU, last read
	runPeak int64         // the run group's peak memory, last read
	oom     bool          // the kernel killed a process of the run for its memory limit
	// cpuBase and cpuSeenBase are the run's CPU and its largest process's
	// at Release: what a warm run spent loading ahead is not the child's.
	cpuBase, cpuSeenBase time.Duration
}

// usage is one sample of the run's processes.
type usage struct {
	peak     int64         // largest address space (Linux) or RSS (macOS) of one process
	cpu      time.Duration // largest CPU time of one process
	cpuTotal time.Duration // the run's: the group's counter, else summed over live processes
	// contained: cpuTotal, runPeak and oomKills are the kernel's counts for
	// the run's control group, dead processes included.
	contained bool
	runPeak   int64
	oomKills  int64
	// readingStdin: a task of the run sleeps in read(2) on fd 0, and fd 0
	// is the host's stdin pipe. running: a task of the run was runnable.
	readingStdin, running bool
	scratchFiles          int64 // files and folders in the scratch; -1 unknown
	// stale: the platform repeated its last reading (macOS reads `ps`
	// only every rssEvery), so this sample says nothing new.
	stale bool
}

type event struct {
	stream Stream // 0 for a frame
	data   []byte
}

// Start runs spec in the sandbox. Output and frames go to h (which may be
// nil) from one goroutine. When no working sandbox exists it returns an
// error wrapping ErrUnavailable and runs nothing.
func Start(ctx context.Context, spec Spec, h Handler) (*Process, error) {
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	if h == nil {
		h = discardHandler{}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	p := &Process{
		spec:     spec,
		cancel:   cancel,
		ctx:      runCtx,
		events:   make(chan event, 64),
		wake:     make(chan struct{}, 1),
		exited:   make(chan struct{}),
		done:     make(chan struct{}),
		released: make(chan struct{}),
	}
	if !spec.Warm {
		close(p.released)
	}
	p.h.Store(&h)
	if err := p.launch(runCtx); err != nil {
		cancel(err)
		return nil, err
	}
	return p, nil
}

func checkSpec(s Spec) error {
	p := s.Policy
	if s.Python == "" {
		return errors.New("sandbox: Spec.Python is empty")
	}
	if p.WallTime <= 0 || p.IdleTime <= 0 || p.CPUTime <= 0 || p.MemoryBytes <= 0 || p.MaxProcs <= 0 ||
		p.FileSizeBytes <= 0 || p.ScratchBytes <= 0 || p.ScratchFiles <= 0 || p.OutputBytes <= 0 || p.MaxOpenFiles <= 0 {
		return fmt.Errorf("sandbox: every Policy limit must be positive: %+v", p)
	}
	if s.Live && !s.Frames {
		return errors.New("sandbox: a live run needs Frames (its events come on fd 4)")
	}
	if s.Warm && !s.Frames {
		return errors.New("sandbox: a warm run needs Frames (its program comes on fd 4)")
	}
	return nil
}

// launch wires pipes around the platform's command and starts it.
func (p *Process) launch(ctx context.Context) (err error) {
	cmd, sys, err := platformCommand(ctx, p.spec)
	if err != nil {
		return err
	}
	p.cmd, p.sys = cmd, sys
	var closeAfterStart, closeOnError []*os.File
	defer func() {
		for _, f := range closeAfterStart {
			f.Close()
		}
		if err != nil {
			for _, f := range closeOnError {
				f.Close()
			}
			sys.cleanup()
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err != nil {
			return nil, nil, fmt.Errorf("sandbox: pipe: %w", err)
		}
		return r, w, nil
	}
	inR, inW, err := pipe()
	if err != nil {
		return err
	}
	closeAfterStart, closeOnError = append(closeAfterStart, inR), append(closeOnError, inW)
	if p.spec.Live {
		if p.stdinPeek, err = dupFile(inR); err != nil {
			return fmt.Errorf("sandbox: stdin: %w", err)
		}
		closeOnError = append(closeOnError, p.stdinPeek)
	}
	outR, outW, err := pipe()
	if err != nil {
		return err
	}
	closeAfterStart, closeOnError = append(closeAfterStart, outW), append(closeOnError, outR)
	errR, errW, err := pipe()
	if err != nil {
		return err
	}
	closeAfterStart, closeOnError = append(closeAfterStart, errW), append(closeOnError, errR)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW

	var framesR *os.File
	if p.spec.Frames {
		var framesW, ctlR *os.File
		if framesR, framesW, err = pipe(); err != nil {
			return err
		}
		closeAfterStart, closeOnError = append(closeAfterStart, framesW), append(closeOnError, framesR)
		if ctlR, p.control, err = pipe(); err != nil {
			return err
		}
		closeAfterStart, closeOnError = append(closeAfterStart, ctlR), append(closeOnError, p.control)
		// fd 3 and 4 in the sandbox, as docs/runner-protocol.md promises.
		cmd.ExtraFiles = append([]*os.File{framesW, ctlR}, cmd.ExtraFiles...)
	}
	cmd.Cancel = func() error { return sys.kill(cmd) }
	cmd.WaitDelay = killWait

	p.start = time.Now()
	p.lastInput.Store(p.start.UnixNano())
	if err := cmd.Start(); err != nil {
		return &UnavailableError{Reason: "could not start the sandbox", Err: err}
	}
	sys.started(cmd)
	p.stdin = inW

	var readers sync.WaitGroup
	p.reads = []*os.File{outR, errR}
	readers.Add(2)
	go func() { defer readers.Done(); p.readStream(outR, Stdout) }()
	go func() { defer readers.Done(); p.readStream(errR, Stderr) }()
	if framesR != nil {
		p.reads = append(p.reads, framesR)
		readers.Add(1)
		go func() { defer readers.Done(); p.readFrames(framesR) }()
	}
	dispatched := make(chan struct{})
	go func() { p.dispatch(); close(dispatched) }()
	go p.supervise()
	go func() {
		sys.setUp()
		werr := cmd.Wait()
		end := time.Now()
		close(p.exited)
		if p.stdinPeek != nil {
			// The run is over: nothing is left to look at in its stdin.
			p.stdinPeek.Close()
		}
		// The sandbox's init is gone once bwrap has reaped it, and with it
		// every process that held a write end; the readers reach EOF.
		sys.finish()
		readers.Wait()
		close(p.events)
		<-dispatched
		if p.control != nil {
			p.control.Close()
		}
		p.stdin.Close()
		p.finish(end, werr)
		sys.cleanup()
		close(p.done)
	}()
	return nil
}

// readStream counts every byte against Policy.OutputBytes: past it the run
// is ended, what came before is kept, and the rest is drained unread so the
// program never blocks on a full pipe before the kill lands.
func (p *Process) readStream(r *os.File, s Stream) {
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.accept(s, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (p *Process) accept(s Stream, b []byte) {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	if p.truncated {
		return
	}
	if left := p.spec.Policy.OutputBytes - p.outBytes; int64(len(b)) > left {
		// Cut where a character starts: half of one (an emoji, a Chinese
		// character) would show as "�", and none can follow to finish it.
		b = b[:charStart(b, int(left))]
		p.truncated = true
		p.cancel(errOutputLimit)
		defer func() {
			p.outcome.Stdout = wholeChars(p.outcome.Stdout)
			p.outcome.Stderr = wholeChars(p.outcome.Stderr)
		}()
	}
	if len(b) == 0 {
		return
	}
	p.outBytes += int64(len(b))
	c := append([]byte(nil), b...)
	if s == Stdout {
		p.outcome.Stdout = append(p.outcome.Stdout, c...)
	} else {
		p.outcome.Stderr = append(p.outcome.Stderr, c...)
	}
	// Sent under the lock so both streams reach the handler in the order
	// the host read them.
	p.events <- event{stream: s, data: c}
}

// readFrames passes on frames within the run's bounds: each at most
// maxFrameBytes, at most maxFrames of them, and their bytes plus
// frameOverhead each at most maxFrameTotalBytes. Past a bound it closes
// the pipe, so the program's next write fails (EPIPE) and costs the host
// nothing: it gets neither a crash nor a stuck pipe, nor the host's time.
func (p *Process) readFrames(r *os.File) {
	defer r.Close()
	// Buffered: a frame costs the host no read of its own, however small.
	br := bufio.NewReaderSize(r, 64<<10)
	budget := int64(maxFrameTotalBytes)
	var hdr [4]byte
	for range maxFrames {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return
		}
		n := int64(binary.BigEndian.Uint32(hdr[:]))
		if budget -= n + frameOverhead; n > maxFrameBytes || budget < 0 {
			return
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(br, payload); err != nil {
			return
		}
		p.outMu.Lock()
		p.events <- event{data: payload}
		p.outMu.Unlock()
	}
}

// dispatch is the one goroutine that calls the Handler, with output and
// frames in the order the host read them. It passes each read on as it
// is: batching output for its readers is the run engine's (one batcher).
func (p *Process) dispatch() {
	for ev := range p.events {
		if ev.stream == 0 {
			(*p.h.Load()).Frame(ev.data)
			continue
		}
		(*p.h.Load()).Output(ev.stream, ev.data)
	}
}

// supervise owns the clocks and the whole-run bounds. Every sampleEvery
// it reads the run's state and charges the time since the last sample to
// the run's clock (runClock), as waiting when the host saw the program
// wait at both ends of it. Waiting is host-side evidence only (sawWaiting);
// nothing the program writes can pause a clock.
func (p *Process) supervise() {
	p.mu.Lock()
	pol := p.spec.Policy
	p.mu.Unlock()
	grace := time.NewTimer(time.Hour)
	grace.Stop()
	tick := time.NewTicker(sampleEvery)
	defer func() { grace.Stop(); tick.Stop() }()
	clock := newClock(p.spec.Live, p.lastInputAt)
	p.mu.Lock()
	last := p.start
	p.mu.Unlock()
	var lastCPU, cpuBase time.Duration
	wasWaiting, stopping := false, false
	stdinIno := pipeInode(p.stdin)
	released := p.released
	held := p.spec.Warm
	for {
		select {
		case <-p.exited:
			return
		case <-released:
			// A warm run's program starts now: its clocks count from here.
			released = nil
			held = false
			p.mu.Lock()
			last, cpuBase, pol = p.start, p.cpuBase, p.spec.Policy
			p.mu.Unlock()
			lastCPU, wasWaiting = 0, false
			clock = newClock(p.spec.Live, p.lastInputAt)
		case <-grace.C:
			p.cancel(errStopped)
		case <-p.wake:
			p.mu.Lock()
			stop := p.stopReq
			p.mu.Unlock()
			if stop && !stopping {
				stopping = true
				// The grace runs from Stop, however long the stop line
				// waits for room in the control pipe.
				grace.Reset(stopGrace)
				p.askToStop()
			}
		case now := <-tick.C:
			u := p.sys.sample(stdinIno)
			p.mu.Lock()
			p.peak = max(p.peak, u.peak)
			p.cpuSeen = max(p.cpuSeen, u.cpu)
			p.cpuRun = max(p.cpuRun, u.cpuTotal)
			p.runPeak = max(p.runPeak, u.runPeak)
			p.mu.Unlock()
			u.cpuTotal -= cpuBase
			if held {
				// Loading ahead: only the memory and file bounds apply.
				switch {
				case u.oomKills > 0:
					p.mu.Lock()
					p.oom = true
					p.mu.Unlock()
					p.cancel(errMemoryLimit)
				case u.scratchFiles > pol.ScratchFiles:
					p.cancel(errFileLimit)
				}
				continue
			}
			// A live run's intervals run between real readings: a repeated
			// one would show a run asleep at one reading as asleep all along.
			if !(p.spec.Live && u.stale) {
				waiting := p.sawWaiting(u, u.cpuTotal-lastCPU, now.Sub(last))
				clock.charge(now.Sub(last), waiting && wasWaiting, u.cpuTotal, now)
				wasWaiting, last, lastCPU = waiting, now, u.cpuTotal
			}
			switch busy, idle := clock.busyOver(pol), clock.idleOver(pol, now); {
			case u.oomKills > 0:
				p.mu.Lock()
				p.oom = true
				p.mu.Unlock()
				p.cancel(errMemoryLimit)
			case rssWatchdog && u.peak > pol.MemoryBytes:
				p.cancel(errMemoryLimit)
			case busy != nil:
				p.cancel(busy)
			case u.scratchFiles > pol.ScratchFiles:
				p.cancel(errFileLimit)
			case idle != nil:
				p.cancel(idle)
			}
		}
	}
}

// sawWaiting is the host's evidence, at one sample, that the run waits;
// cpu is the run's CPU used over the interval d that ends there. A normal
// run waits for input: a task blocked reading the host's stdin pipe,
// nothing unread in it, no task runnable and (where the kernel counts it)
// under a tenth of d in CPU. A live run waits for events: no task
// runnable, nothing the host wrote unread in its stdin or control pipe,
// and under a tenth of d in CPU, as the kernel or, without a group, the
// host's sum over the run's processes counts it.
//
// In either run, a task blocked writing to a pipe the host has not read
// yet is busy, not waiting: anything unread in the run's stdout, stderr or
// frame pipe is work the host still does for it.
func (p *Process) sawWaiting(u usage, cpu, d time.Duration) bool {
	if !p.writesRead() {
		return false
	}
	if p.spec.Live {
		return !u.running && p.hostWritesRead() && cpu <= d/10
	}
	waiting := u.readingStdin && !u.running && p.stdinEmpty()
	if u.contained && cpu > d/10 {
		waiting = false
	}
	return waiting
}

// hostWritesRead reports whether a live run has read everything the host
// wrote to its stdin (closed or not) and to its control pipe.
func (p *Process) hostWritesRead() bool {
	for _, f := range []*os.File{p.stdinPeek, p.control} {
		if n, ok := pipeUnread(f); !ok || n != 0 {
			return false
		}
	}
	return true
}

// writesRead reports whether the host has read everything the run wrote to
// its stdout, stderr and frame pipes; a pipe the host closed holds nothing
// for it.
func (p *Process) writesRead() bool {
	for _, f := range p.reads {
		if n, ok := pipeUnread(f); ok && n != 0 {
			return false
		}
	}
	return true
}

// lastInputAt is when the host last gave the run input: a control line or
// stdin bytes written, or the start.
func (p *Process) lastInputAt() time.Time {
	return time.Unix(0, p.lastInput.Load())
}

// gaveInput records that the host has just written input for the run.
func (p *Process) gaveInput() { p.lastInput.Store(time.Now().UnixNano()) }

// askToStop writes the runner's stop line. A deadline keeps a program that
// never reads fd 4 from holding the supervisor; the grace timer kills it.
func (p *Process) askToStop() {
	if p.control == nil {
		return
	}
	p.ctlMu.Lock()
	defer p.ctlMu.Unlock()
	p.control.SetWriteDeadline(time.Now().Add(stopGrace))
	p.control.Write([]byte("stop\n"))
}

// SendControl writes one line (without its newline) to the program's
// control pipe, fd 4. The write gives up after controlWriteWait, so a
// program that stops reading can never hold the caller: the line is then
// dropped and ErrControlFull returned.
func (p *Process) SendControl(line []byte) error {
	if p.control == nil {
		return os.ErrInvalid
	}
	if bytes.IndexByte(line, '\n') >= 0 || len(line) > maxControlLine {
		return errBadControlLine
	}
	select {
	case <-p.exited:
		return os.ErrClosed
	default:
	}
	p.ctlMu.Lock()
	defer p.ctlMu.Unlock()
	p.control.SetWriteDeadline(time.Now().Add(controlWriteWait))
	_, err := p.control.Write(append(append([]byte(nil), line...), '\n'))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return ErrControlFull
	}
	if err == nil {
		p.gaveInput()
	}
	return err
}

// SendControlInOrder writes lines (each without its newline, and short
// enough for the pipe to take whole: at most pipeAtomic-1 bytes) to the
// program's control pipe in order, waiting as long as the program runs for
// it to read them: a scripted run's timeline, which must arrive whole.
// Each line goes in one atomic write, and the pipe is free between two of
// them, so a stop line can come between lines but never inside one. It
// returns once every line is written, or with an error once the program
// has ended or its pipe is closed.
func (p *Process) SendControlInOrder(lines [][]byte) error {
	if p.control == nil {
		return os.ErrInvalid
	}
	for _, line := range lines {
		if bytes.IndexByte(line, '\n') >= 0 || len(line) >= pipeAtomic {
			return errBadControlLine
		}
	}
	for _, line := range lines {
		buf := append(append([]byte(nil), line...), '\n')
		for {
			select {
			case <-p.exited:
				return os.ErrClosed
			default:
			}
			p.ctlMu.Lock()
			p.control.SetWriteDeadline(time.Now().Add(controlWriteWait))
			n, err := p.control.Write(buf)
			p.ctlMu.Unlock()
			if err == nil {
				break
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return err
			}
			if n != 0 {
				// A pipe takes a write of up to PIPE_BUF bytes whole or not at all.
				return fmt.Errorf("sandbox: a control line was cut after %d bytes", n)
			}
		}
		p.gaveInput()
	}
	return nil
}

// pipeAtomic is PIPE_BUF: a pipe takes a write of at most this many bytes whole or not at all.
const pipeAtomic = 4096

// ErrControlFull is returned by SendControl when the program has not read
// its control pipe for a while; the line was dropped.
var ErrControlFull = errors.New("sandbox: the program is not taking events")

var errBadControlLine = errors.New("sandbox: a control line has no newline and at most 4 KiB")

func (p *Process) notify() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// WriteInput sends bytes to the program's stdin (the caller adds "\n").
func (p *Process) WriteInput(b []byte) error {
	select {
	case <-p.exited:
		return os.ErrClosed
	default:
	}
	_, err := p.stdin.Write(b)
	if err == nil {
		p.gaveInput()
	}
	return err
}

// CloseInput closes the program's stdin, so input() raises EOFError.
func (p *Process) CloseInput() error { return p.stdin.Close() }

// Stop asks the program to end (the runner's "stop" line on fd 4, when
// Spec.Frames), then kills the whole sandbox after a short grace. It
// returns at once; Wait reports Stopped.
func (p *Process) Stop() {
	p.mu.Lock()
	p.stopReq = true
	p.mu.Unlock()
	if p.control == nil {
		p.cancel(errStopped)
		return
	}
	p.notify()
}

// Started is when the sandbox was started, or a warm run's program handed
// over: the run's durations and a scripted run's events count from here.
func (p *Process) Started() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.start
}

// Release hands a warm run its program: h gets the run's output and
// frames from now on, first goes to the control pipe (the runner's go
// line and the program, docs/runner-protocol.md "Warm runs"), and the
// run's clocks start. wall and cpu, when positive and at most the spec's,
// replace its WallTime and CPUTime (the host's clocks). It fails when the
// run is not warm, was released before, has ended, or did not take first
// within releaseWait.
func (p *Process) Release(h Handler, first []byte, wall, cpu time.Duration) error {
	if !p.spec.Warm {
		return errors.New("sandbox: Release on a run that is not warm")
	}
	select {
	case <-p.exited:
		return os.ErrClosed
	default:
	}
	if h == nil {
		h = discardHandler{}
	}
	err := errors.New("sandbox: released twice")
	p.releaseOnce.Do(func() {
		u := p.sys.sample(0)
		// The handler is in place before the program can print: the runner
		// starts it as soon as it has read first.
		p.h.Store(&h)
		now := time.Now()
		p.mu.Lock()
		if wall > 0 && wall <= p.spec.Policy.WallTime {
			p.spec.Policy.WallTime = wall
		}
		if cpu > 0 && cpu <= p.spec.Policy.CPUTime {
			p.spec.Policy.CPUTime = cpu
		}
		p.start = now
		p.cpuBase = u.cpuTotal
		p.cpuSeenBase = p.cpuSeen
		p.mu.Unlock()
		p.lastInput.Store(now.UnixNano())
		close(p.released)
		p.ctlMu.Lock()
		p.control.SetWriteDeadline(time.Now().Add(releaseWait))
		_, err = p.control.Write(first)
		p.ctlMu.Unlock()
		if err != nil {
			p.cancel(errStopped)
		}
	})
	return err
}

// releaseWait bounds how long Release waits for a warm runner still
// loading ahead to take its program.
const releaseWait = 20 * time.Second

// Resident is the resident memory of the run's processes now, in bytes
// (0 when unknown): for a warm run waiting for its program, what it loaded
// ahead.
func (p *Process) Resident() int64 {
	select {
	case <-p.exited:
		return 0
	default:
	}
	return p.sys.resident(p.cmd.Process.Pid)
}

// Done is closed when the run is over and Wait returns at once.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait blocks until the run is over and every process of it is gone.
func (p *Process) Wait() Outcome {
	<-p.done
	return p.outcome
}

// finish settles the outcome from what the host saw.
func (p *Process) finish(end time.Time, werr error) {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	duration := max(end.Sub(p.start), 0)
	o := observation{
		cause:   context.Cause(p.ctx),
		policy:  p.spec.Policy,
		peak:    p.peak,
		stopped: p.stopReq,
		oom:     p.oom,
		live:    p.spec.Live,
	}
	// A last reading of the group's counters: the end may have come
	// between two samples.
	if u := p.sys.sample(0); u.contained {
		o.contained = true
		p.cpuRun = max(p.cpuRun, u.cpuTotal)
		p.runPeak = max(p.runPeak, u.runPeak)
		o.oom = o.oom || u.oomKills > 0
	}
	if ps := p.cmd.ProcessState; ps != nil {
		o.exitCode = ps.ExitCode()
		o.signal = waitSignal(ps)
		o.cpu = max(ps.UserTime()+ps.SystemTime(), p.cpuSeen) - p.cpuSeenBase
	} else {
		o.exitCode, o.signal = -1, 0
	}
	p.outcome.Status, p.outcome.ExitCode, p.outcome.Signal = verdict(o)
	p.outcome.Limit = limitName(o.cause)
	if err := p.sys.failure(); err != nil {
		p.outcome.Status, p.outcome.Limit, p.outcome.Setup = StatusUnavailable, "", err
	}
	p.outcome.RunMemoryPeak = p.runPeak
	p.outcome.Duration = duration
	p.outcome.Truncated = p.truncated
	p.outcome.Stopped = p.stopReq
	p.outcome.PeakMemory = p.peak
	p.outcome.CPUTime = max(o.cpu, p.cpuRun-p.cpuBase)
	_ = werr // the status already says everything Wait's error could
	p.cancel(nil)
}

// observation is what the host knows when a run ends.
type observation struct {
	cause    error         // the run context's cause: nil, errTimeout, errOutputLimit, errStopped or the caller's
	exitCode int           // bwrap's exit code (128+n when the program died of signal n); -1 if bwrap itself was signalled
	signal   int           // the signal that ended bwrap itself, 0 if it exited
	cpu      time.Duration // the most CPU the host saw one process (or the reaped tree) use
	peak     int64
	policy   Policy
	stopped  bool
	oom      bool // the run group's out-of-memory kill count rose: kernel evidence
	live     bool // a live run: its processes had the larger per-process CPU limit
	// contained: a control group bounded the run's memory, so only oom
	// (the kernel's count) says memory ran out, never a sampled peak.
	contained bool
}

// verdict names the run's status, exit code and signal. It only trusts the
// host's own observations: which limit the host enforced, the wait status,
// the rusage of reaped processes and the sampled memory peak.
func verdict(o observation) (Status, int, string) {
	sig := o.signal
	code := o.exitCode
	if sig == 0 && code > 128 && code <= 128+64 {
		sig = code - 128
	}
	if sig != 0 {
		code = 128 + sig
	}
	name := ""
	if sig != 0 {
		name = signalName(sig)
	}
	nearCPU := float64(o.cpu) >= nearLimit*float64(time.Duration(rlimitsOf(o.policy, o.live, false).CPU)*time.Second)
	nearMem := !o.contained && float64(o.peak) >= nearLimit*float64(o.policy.MemoryBytes)
	switch {
	case errors.Is(o.cause, errOutputLimit):
		return StatusOutput, code, name
	case errors.Is(o.cause, errTimeout), errors.Is(o.cause, errCPULimit), errors.Is(o.cause, errIdleLimit),
		errors.Is(o.cause, errQuietLimit):
		return StatusTimeout, 124, name
	case errors.Is(o.cause, errMemoryLimit), o.oom:
		return StatusMemory, code, name
	case errors.Is(o.cause, errFileLimit):
		return StatusKilled, code, name
	case sig == sigXCPU:
		return StatusTimeout, 124, name
	case sig == sigKILL:
		if nearCPU {
			return StatusTimeout, 124, name
		}
		if nearMem {
			return StatusMemory, code, name
		}
		return StatusKilled, code, name
	case sig != 0:
		if nearMem {
			return StatusMemory, code, name
		}
		return StatusKilled, code, name
	case o.cause != nil && !errors.Is(o.cause, errStopped) && code != 0:
		return StatusKilled, code, name
	case code == 0:
		return StatusOK, 0, ""
	case nearMem:
		return StatusMemory, code, ""
	default:
		return StatusError, code, ""
	}
}

// limitName names the bound behind a cause, where Status alone does not say it.
func limitName(cause error) string {
	switch {
	case errors.Is(cause, errCPULimit):
		return "cpu"
	case errors.Is(cause, errIdleLimit):
		return "idle"
	case errors.Is(cause, errQuietLimit):
		return "quiet"
	case errors.Is(cause, errFileLimit):
		return "files"
	}
	return ""
}

// stdinEmpty reports whether the program has read everything the host
// wrote to its stdin; false once stdin is closed (a read then returns at once).
func (p *Process) stdinEmpty() bool {
	n, ok := pipeUnread(p.stdin)
	return ok && n == 0
}

type discardHandler struct{}

func (discardHandler) Output(Stream, []byte) {}
func (discardHandler) Frame([]byte)          {}
