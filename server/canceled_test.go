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
