package merge

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Phases of a running merge, as vsql_merge_status() reports them.
const (
	PhaseSelection   = "selection"
	PhaseTargetCheck = "target_check"
	PhaseComparison  = "comparison"
	PhaseApplication = "application"
	PhasePublication = "publication"
)

// Status is one running merge.
type Status struct {
	OperationID, RequestID, Database, Destination string
	Phase, Table                                  string
	RowsCompared, RowsApplied                     int64
	Started                                       time.Time
}

// progress is the registry behind vsql_merge_status().
type progress struct {
	mu      sync.Mutex
	running map[string]*Status
	report  map[string]func(string) // operation → Options.Progress
}

func (p *progress) start(op, requestID, db string, report func(string)) *Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running == nil {
		p.running, p.report = map[string]*Status{}, map[string]func(string){}
	}
	if report != nil {
		p.report[op] = report
	}
	s := &Status{OperationID: op, RequestID: requestID, Database: db, Phase: PhaseSelection, Started: time.Now()}
	p.running[op] = s
	return s
}

func (p *progress) update(s *Status, fn func(*Status)) {
	if s == nil {
		return
	}
	p.mu.Lock()
	fn(s)
	st := *s
	report := p.report[s.OperationID]
	p.mu.Unlock()
	if report != nil {
		msg := "merge " + st.OperationID + ": " + st.Phase
		if st.Table != "" {
			msg += " of table " + st.Table
		}
		report(fmt.Sprintf("%s (%d rows compared, %d applied, %s)", msg, st.RowsCompared, st.RowsApplied, time.Since(st.Started).Round(time.Millisecond)))
	}
}

func (p *progress) finish(op string) {
	p.mu.Lock()
	delete(p.running, op)
	delete(p.report, op)
	p.mu.Unlock()
}

// Running lists the merges running now, oldest first.
func (m *Merger) Running() []Status {
	m.progress.mu.Lock()
	defer m.progress.mu.Unlock()
	out := make([]Status, 0, len(m.progress.running))
	for _, s := range m.progress.running {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}
