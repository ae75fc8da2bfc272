package pgwire

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// panickingHandler opens sessions whose Prepare panics: a stand-in for a
// bug in the server, which no real component can be made to produce on
// purpose.
type panickingHandler struct{}

func (panickingHandler) Startup(context.Context, map[string]string, net.Addr) (Session, error) {
	return panickingSession{}, nil
}
func (panickingHandler) Cancel(uint32, []byte) {}

type panickingSession struct{}

func (panickingSession) BackendKey() (uint32, []byte)  { return 1, []byte{0, 0, 0, 1} }
func (panickingSession) ParameterStatus() [][2]string  { return nil }
func (panickingSession) TxStatus() byte                { return 'I' }
func (panickingSession) TakeNotices() []*vsqlerr.Error { return nil }
func (panickingSession) Close()                        {}
func (panickingSession) Prepare(context.Context, sqltext.Statement, []uint32) (Statement, error) {
	var s []string
	return nil, vsqlerr.New(vsqlerr.Internal, "%s", s[3]) // index out of range
}

// TestPanicEndsOnlyTheConnection: a panic while serving a message reaches
// the client as FATAL XX000 and closes its connection; it must neither hang
// the connection nor take the process down.
func TestPanicEndsOnlyTheConnection(t *testing.T) {
	server, client := net.Pipe()
	conn := NewConn(server, panickingHandler{}, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	served := make(chan struct{})
	go func() { conn.Serve(context.Background()); close(served) }()

	_ = client.SetDeadline(time.Now().Add(10 * time.Second))
	fe := pgproto3.NewFrontend(client, client)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "u"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	fe.Send(&pgproto3.Query{String: "SELECT 1"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var got *pgproto3.ErrorResponse
	for got == nil {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatalf("no error response before the connection ended: %v", err)
		}
		if e, ok := msg.(*pgproto3.ErrorResponse); ok {
			got = e
		}
	}
	if got.Severity != "FATAL" || got.Code != "XX000" {
		t.Fatalf("got %s %s %q, want FATAL XX000", got.Severity, got.Code, got.Message)
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the panic")
	}
}
