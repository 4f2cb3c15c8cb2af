package lessons

import (
	"encoding/json"
	"path/filepath"
	"sort"

	"kidcoder/backend/safefile"
)

// Position is where the child was in a lesson.
type Position struct {
	ScrollTop float64 `json:"scrollTop"`
	Cursor    int     `json:"cursor"`
}

// State is what the app remembers in the folder's .kidcoder/state.json, so
// it travels with the folder to another computer.
type State struct {
	Open            string              `json:"open,omitempty"`
	Positions       map[string]Position `json:"positions,omitempty"`
	StartersWritten bool                `json:"startersWritten,omitempty"`
}

// maxPositions bounds the file; the open lesson's position is always kept.
const maxPositions = 200

// maxMetaBytes bounds what is read of the app's own small JSON files in the
// folder (state.json, a deletion's deleted.json): far more than they ever
// hold, so a bigger one is not ours.
const maxMetaBytes = 1 << 20

func (l *Library) statePath() string {
	return filepath.Join(l.root, stateDir, "state.json")
}

// State returns the remembered state. A missing, damaged or unreadable file
// (a FIFO or link in its place, say) is an empty state: forgetting where the
// child was is better than refusing, or never managing, to start.
func (l *Library) State() State {
	var s State
	b, err := safefile.ReadFile(l.statePath(), maxMetaBytes)
	if err != nil || json.Unmarshal(b, &s) != nil {
		return State{}
	}
	return s
}

// Remember stores the open lesson and where the child was in it.
func (l *Library) Remember(open string, pos Position) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.State()
	s.Open = open
	if open != "" {
		if s.Positions == nil {
			s.Positions = map[string]Position{}
		}
		s.Positions[open] = pos
	}
	return l.writeState(s)
}

func (l *Library) writeState(s State) error {
	if len(s.Positions) > maxPositions {
		keys := make([]string, 0, len(s.Positions))
		for k := range s.Positions {
			if k != s.Open {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys[:len(s.Positions)-maxPositions] {
			delete(s.Positions, k)
		}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	// Through a Writer: a .kidcoder (or state.json) that is a link is
	// refused or replaced, never written through to wherever it points.
	w, err := OpenWriter(l.root)
	if err != nil {
		return err
	}
	defer w.Close()
	meta, err := w.makeDir([]string{stateDir}, true)
	if err != nil {
		return err
	}
	defer meta.Close()
	return meta.WriteFile(filepath.Base(l.statePath()), append(b, '\n'))
}
