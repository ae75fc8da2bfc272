package server

import (
	"context"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// TestCanceledNamesTheCause: DuckDB's interrupt is the client's cancel
// only when the statement's context was canceled; otherwise the SQLSTATE
// says vsql does not know the error (not 57014, which would tell the
// client it asked for it).
func TestCanceledNamesTheCause(t *testing.T) {
	interrupted := &duckdb.Error{Type: duckdb.ErrorTypeInterrupt, Msg: "INTERRUPT Error: Interrupted!"}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{{done, "57014"}, {context.Background(), "XX000"}} {
		if got := vsqlerr.From(canceled(c.ctx, interrupted)).SQLState; got != c.want {
			t.Errorf("ctx err %v: SQLSTATE %s, want %s", c.ctx.Err(), got, c.want)
		}
	}
	conversion := &duckdb.Error{Type: duckdb.ErrorTypeConversion, Msg: "Conversion Error: x"}
	if got := vsqlerr.From(canceled(context.Background(), conversion)).SQLState; got != "22P02" && got != "22018" {
		t.Errorf("conversion error: SQLSTATE %s", got)
	}
}

// TestCancelBeforeTheStatementRuns: a cancel that arrives while the
// client's query is being answered but before its statement runs (while
// it is parsed or prepared) cancels that statement, as in PostgreSQL; one
// that arrives while the session is idle is ignored, and a cancel still
// pending when the query ends never reaches the next one. Before, the
// first was lost and the statement ran to its end (TestActivityAndSignals
// failed that way under load: a canceled count ran for 17 s and answered).
func TestCancelBeforeTheStatementRuns(t *testing.T) {
	s := &Session{srv: &Server{}}
	bg := context.Background()
	step := func(wantCanceled bool, what string) {
		t.Helper()
		ctx, done := s.running(bg)
		defer done()
		if got := ctx.Err() != nil; got != wantCanceled {
			t.Fatalf("%s: statement canceled = %v, want %v", what, got, wantCanceled)
		}
	}
	s.cancelRunning()
	s.answering(true)
	step(false, "a cancel sent while the session was idle")
	s.cancelRunning()
	step(true, "a cancel sent before the query's statement ran")
	step(false, "the step after the canceled one")
	s.cancelRunning()
	s.answering(false)
	s.answering(true)
	step(false, "a cancel pending when the last query ended")
	ctx, done := s.running(bg)
	s.cancelRunning()
	if ctx.Err() == nil {
		t.Fatal("a cancel of the running statement did not cancel it")
	}
	done()
}
