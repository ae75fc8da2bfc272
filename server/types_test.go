package server_test

import (
	"bytes"
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Values sent by pgx as binary parameters come back equal, read in binary.
func TestPgxBinaryParamsRoundTrip(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx := context.Background()
	_, err := conn.Exec(ctx, `CREATE TABLE rt (id int PRIMARY KEY, b boolean, i2 smallint, i8 bigint, f4 real, f8 double,
		n numeric(20,4), t text, bt blob, d date, ts timestamp, tz timestamptz, u uuid, iv interval)`)
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2023, 12, 31, 23, 59, 58, 123456000, time.UTC)
	uuid := [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}
	num := pgtype.Numeric{Int: big.NewInt(-1234567891), Exp: -4, Valid: true}
	iv := pgtype.Interval{Months: 14, Days: 3, Microseconds: 3723000001, Valid: true}
	_, err = conn.Exec(ctx, "INSERT INTO rt VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
		1, true, int16(-7), int64(1)<<62, float32(1.25), 2.5e-300, num, "snow ☃", []byte{0, 1, 0xff},
		pgtype.Date{Time: time.Date(2020, 2, 29, 0, 0, 0, 0, time.UTC), Valid: true},
		pgtype.Timestamp{Time: ts, Valid: true}, ts, pgtype.UUID{Bytes: uuid, Valid: true}, iv)
	if err != nil {
		t.Fatal(err)
	}
	var (
		b      bool
		i2     int16
		i8     int64
		f4     float32
		f8     float64
		n      pgtype.Numeric
		s      string
		by     []byte
		d      pgtype.Date
		tsv    pgtype.Timestamp
		tz     time.Time
		u      pgtype.UUID
		ivBack pgtype.Interval
	)
	err = conn.QueryRow(ctx, "SELECT b, i2, i8, f4, f8, n, t, bt, d, ts, tz, u, iv FROM rt WHERE id = $1", 1).
		Scan(&b, &i2, &i8, &f4, &f8, &n, &s, &by, &d, &tsv, &tz, &u, &ivBack)
	if err != nil {
		t.Fatal(err)
	}
	if !b || i2 != -7 || i8 != int64(1)<<62 || f4 != 1.25 || f8 != 2.5e-300 || s != "snow ☃" || !bytes.Equal(by, []byte{0, 1, 0xff}) {
		t.Errorf("scalars: %v %v %v %v %v %q %x", b, i2, i8, f4, f8, s, by)
	}
	if n.Int.Cmp(num.Int) != 0 || n.Exp != num.Exp {
		t.Errorf("numeric %v e%d", n.Int, n.Exp)
	}
	if !d.Time.Equal(time.Date(2020, 2, 29, 0, 0, 0, 0, time.UTC)) || !tsv.Time.Equal(ts) || !tz.Equal(ts) {
		t.Errorf("dates: %v %v %v", d.Time, tsv.Time, tz)
	}
	if u.Bytes != uuid || ivBack != iv {
		t.Errorf("uuid %x interval %+v", u.Bytes, ivBack)
	}
	// NULL parameters and NULL results.
	var null *int32
	if err := conn.QueryRow(ctx, "SELECT $1::int", nil).Scan(&null); err != nil || null != nil {
		t.Errorf("NULL round trip: %v %v", null, err)
	}
}

// Cancelling one session's statement leaves another session's running
// statement alone.
func TestCancelIsPerSession(t *testing.T) {
	addr := startServer(t, nil)
	a := connectPgx(t, addr)
	b := connectPgx(t, addr)
	done := make(chan error, 1)
	var bFinished time.Time
	go func() {
		var n int64
		err := b.QueryRow(context.Background(), "SELECT count(*) FROM range(400000000) WHERE range % 7 = 3").Scan(&n)
		bFinished = time.Now()
		done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var n int64
	if err := a.QueryRow(ctx, longQuery).Scan(&n); err == nil {
		t.Fatal("session a was not cancelled")
	}
	aCancelled := time.Now()
	if err := <-done; err != nil {
		t.Fatalf("session b was disturbed by a's cancel: %v", err)
	}
	if bFinished.Before(aCancelled) {
		t.Fatal("session b finished before a was cancelled; the test proves nothing: lengthen b's query")
	}
}
