package app

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/packs"
)

// EventCheckProgress carries CheckProgressEvent: a check's next run starts.
const EventCheckProgress = "check:progress"

// CheckProgressEvent says which run of the check runID starts now: run Run
// of Runs, deciding the checks Checks (indexes into the report's results).
type CheckProgressEvent struct {
	RunID string `json:"runId"`
	packs.CheckProgress
}

// checkRuns are the window's checks going, by their run ids: Stop ends
// one as it ends a run, Shutdown all of them. Their contexts are their own,
// never the shell's.
type checkRuns struct {
	mu     sync.Mutex
	going  map[string]context.CancelFunc
	seq    int
	closed bool
}

// start gives the check id its context; end forgets it. An id "" gets a
// key no Stop can name (CheckRunID refuses it), so only Shutdown ends it.
func (c *checkRuns) start(id string) (ctx context.Context, end func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, fmt.Errorf("the app is closing")
	}
	if id == "" {
		c.seq++
		id = "\x00" + strconv.Itoa(c.seq)
	}
	if _, ok := c.going[id]; ok {
		return nil, nil, fmt.Errorf("%w: %q", kidrun.ErrRunIDInUse, id)
	}
	if c.going == nil {
		c.going = map[string]context.CancelFunc{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.going[id] = cancel
	return ctx, func() {
		c.mu.Lock()
		delete(c.going, id)
		c.mu.Unlock()
		cancel()
	}, nil
}

// stop ends the check id, if one is going.
func (c *checkRuns) stop(id string) {
	c.mu.Lock()
	cancel := c.going[id]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// close ends every check going and refuses new ones.
func (c *checkRuns) close() {
	c.mu.Lock()
	c.closed = true
	var all []context.CancelFunc
	for _, cancel := range c.going {
		all = append(all, cancel)
	}
	c.mu.Unlock()
	for _, cancel := range all {
		cancel()
	}
}
