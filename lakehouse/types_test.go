package lakehouse

import (
	"regexp"
	"strings"
	"testing"
)

func TestParseAndMapTypes(t *testing.T) {
	for _, c := range []struct{ duck, iceberg string }{
		{"INTEGER", "int"},
		{"UTINYINT", "int"},
		{"UINTEGER", "long"},
		{"UBIGINT", "decimal(20, 0)"},
		{"DECIMAL(12,2)", "decimal(12, 2)"},
		{"TIMESTAMP WITH TIME ZONE", "timestamptz"},
		{"TIMESTAMP_MS", "timestamp"},
		{"VARCHAR[]", "list<string>"},
		{"INTEGER[3]", "list<int>"},
		{"INTEGER[][]", "list<list<int>>"},
		{`STRUCT(a INTEGER, "b ""c""" VARCHAR[])`, `struct<a: int, b "c": list<string>>`},
		{"MAP(VARCHAR, STRUCT(x DOUBLE))", "map<string, struct<x: double>>"},
		{"ENUM('a', 'b)')", "string"},
	} {
		dt, err := parseDuckType(c.duck)
		if err != nil {
			t.Errorf("parse %q: %v", c.duck, err)
			continue
		}
		n := 100
		it, err := icebergType(dt, func() int { n++; return n })
		if err != nil {
			t.Errorf("map %q: %v", c.duck, err)
			continue
		}
		if got := icebergIDs.ReplaceAllString(it.String(), ""); got != c.iceberg {
			t.Errorf("%q maps to %s, want %s", c.duck, got, c.iceberg)
		}
	}
	for duck, why := range map[string]string{
		"INTERVAL":            "type INTERVAL cannot be exported",
		"HUGEINT":             "39 digits",
		"TIMESTAMP_NS":        "microseconds",
		"STRUCT(a INTERVAL)":  `field "a": type INTERVAL`,
		"TIME WITH TIME ZONE": "no zone",
	} {
		dt, err := parseDuckType(duck)
		if err != nil {
			t.Fatalf("parse %q: %v", duck, err)
		}
		if _, err := icebergType(dt, func() int { return 1 }); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want an error saying %q", duck, err, why)
		}
	}
	for _, bad := range []string{"DECIMAL(12", "STRUCT(a)", `STRUCT("a INTEGER)`} {
		if _, err := parseDuckType(bad); err == nil {
			t.Errorf("parse %q: no error", bad)
		}
	}
}

func TestSelectExprCastsWhatParquetWouldMisread(t *testing.T) {
	for duck, want := range map[string]string{
		"INTEGER":                      `x`,
		"TINYINT":                      `CAST(x AS INTEGER)`,
		"INTEGER[2]":                   `CAST(x AS INTEGER[])`,
		"TINYINT[]":                    `list_transform(x, x -> CAST(x AS INTEGER))`,
		"STRUCT(a TINYINT, b VARCHAR)": `CASE WHEN x IS NULL THEN NULL ELSE {'a': CAST(x."a" AS INTEGER), 'b': x."b"} END`,
		"STRUCT(a INTEGER)":            `x`,
	} {
		dt, err := parseDuckType(duck)
		if err != nil {
			t.Fatal(err)
		}
		if got := selectExpr(dt, "x"); got != want {
			t.Errorf("%s: %s, want %s", duck, got, want)
		}
	}
}

func TestParseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"/srv/lake/":            "/srv/lake",
		"file:///srv/lake":      "/srv/lake",
		"s3://bucket/a/b/":      "s3://bucket/a/b",
		"s3://bucket":           "s3://bucket",
		"file://localhost/srv/": "/srv",
	} {
		tg, err := parseURL("/data", raw)
		if err != nil || tg.url != want {
			t.Errorf("%q: %q, %v; want %q", raw, tg.url, err, want)
		}
	}
	for _, bad := range []string{"lake", "http://x/y", "s3://", "file://host/x", "/data/lake", "/data"} {
		if _, err := parseURL("/data", bad); err == nil || !strings.Contains(err.Error(), "invalid_argument") {
			t.Errorf("%q: %v, want invalid_argument", bad, err)
		}
	}
}

// icebergIDs matches the field ids and optional markers of a nested Iceberg
// type's text.
var icebergIDs = regexp.MustCompile(`\d+: |optional `)
