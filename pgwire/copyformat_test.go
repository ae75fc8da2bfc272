package pgwire

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

func copyFormat(t *testing.T, sql string, from bool) CopyFormat {
	t.Helper()
	cp, err := sqltext.Parse(sql).ParseCopy()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseCopyOptions(cp.Options, from)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return f
}

// readAll reads every row, NULL shown as <NULL>, fields joined by |.
func readAll(t *testing.T, f CopyFormat, cols []string, data string) ([]string, error) {
	t.Helper()
	if err := f.Bind(cols); err != nil {
		t.Fatal(err)
	}
	r := NewCopyReader(strings.NewReader(data), &f, "t", cols)
	var out []string
	vals := make([]any, len(cols))
	for {
		_, err := r.Next(vals)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				parts[i] = "<NULL>"
			} else {
				parts[i] = v.(string)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
}

func TestCopyReaderText(t *testing.T) {
	f := copyFormat(t, "COPY t FROM STDIN", true)
	got, err := readAll(t, f, []string{"a", "b"}, "x\t\\N\n\\\\N\t\n\\t\\n\\r\\b\\f\\v\\101\\x41\\q\t\\\t\r\n\\.\nignored\tafter\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x|<NULL>", "\\N|", "\t\n\r\b\f\vAAq|\t"}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// no trailing newline on the last line
	got, _ = readAll(t, f, []string{"a"}, "1\n2")
	if strings.Join(got, ";") != "1;2" {
		t.Errorf("got %q", got)
	}
	for data, msg := range map[string]string{
		"1\t2\n2\t3\t4\n": "COPY t, line 2: extra data after last expected column",
		"1\tx\r1\n":       "literal carriage return",
		"1\tx\\\n":        "unterminated backslash",
		"\xff\t1\n":       "invalid byte sequence",
		"1\t\\377\n":      "invalid byte sequence",
	} {
		_, err := readAll(t, f, []string{"a", "b"}, data)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: got %v, want %q", data, err, msg)
		}
		var e *vsqlerr.Error
		if errors.As(err, &e) && e.SQLState != "22P04" {
			t.Errorf("%q: SQLSTATE %s", data, e.SQLState)
		}
	}
	_, err = readAll(t, f, []string{"a", "b"}, "1\tx\n2\n")
	var e *vsqlerr.Error
	if !errors.As(err, &e) || e.Where != `COPY t, line 2: "2"` || e.Message != `COPY t, line 2: missing data for column "b"` {
		t.Errorf("got %#v", err)
	}
}

func TestCopyReaderCSV(t *testing.T) {
	f := copyFormat(t, "COPY t FROM STDIN (FORMAT csv, HEADER)", true)
	got, err := readAll(t, f, []string{"a", "b", "c"}, "a,b,c\n1,,\"\"\n\"x\"\"y\",\"multi\r\nline\",\"a,b\"\r\n ab , c\"d\"e ,\\N\n\\.\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1|<NULL>|", "x\"y|multi\r\nline|a,b", " ab | cde |\\N"}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	f = copyFormat(t, "COPY t FROM STDIN (FORMAT csv, QUOTE '''', ESCAPE '\\', NULL 'NULL', FORCE_NULL (b), FORCE_NOT_NULL (a))", true)
	got, err = readAll(t, f, []string{"a", "b"}, "NULL,'NULL'\n'it\\'s','back\\\\slash'\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "NULL|<NULL>;it's|back\\slash"; strings.Join(got, ";") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	f = copyFormat(t, "COPY t FROM STDIN (FORMAT csv)", true)
	if _, err := readAll(t, f, []string{"a"}, "1\n\"open\n\n"); err == nil || !strings.Contains(err.Error(), "line 2: unterminated CSV quoted field") {
		t.Errorf("got %v", err)
	}
}

func TestCopyOptionErrors(t *testing.T) {
	for sql, msg := range map[string]string{
		"COPY t FROM STDIN (FORMAT csv, FORMAT text)":    "conflicting or redundant options",
		"COPY t FROM STDIN (QUOTE '\"')":                 "only in CSV mode",
		"COPY t FROM STDIN (DELIMITER 'a')":              `COPY delimiter cannot be "a"`,
		"COPY t FROM STDIN (FORMAT csv, DELIMITER '\"')": "delimiter and quote must be different",
		"COPY t FROM STDIN (NULL E'\\n')":                "newline",
		"COPY t FROM STDIN (ENCODING 'LATIN1')":          "not supported",
		"COPY t TO STDOUT (HEADER match)":                "match",
		"COPY t FROM STDIN (FORMAT csv, FORCE_QUOTE *)":  "FORCE_QUOTE cannot be used with COPY FROM",
		"COPY t FROM STDIN (FORCE_NOT_NULL (a))":         "only in CSV mode",
		"COPY t FROM STDIN (FROBNICATE 1)":               `option "frobnicate" not recognized`,
	} {
		cp, err := sqltext.Parse(sql).ParseCopy()
		if err != nil {
			t.Fatal(err)
		}
		_, err = ParseCopyOptions(cp.Options, cp.From)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", sql, err, msg)
		}
	}
	f := copyFormat(t, "COPY t FROM STDIN (FORMAT csv, FORCE_NOT_NULL (zz))", true)
	if err := f.Bind([]string{"a"}); err == nil || !strings.Contains(err.Error(), `FORCE_NOT_NULL column "zz" not referenced by COPY`) {
		t.Errorf("got %v", err)
	}
}

func TestCopyWriter(t *testing.T) {
	cells := [][]byte{[]byte("a\tb\nc\\d\re\x01|"), nil, []byte(""), []byte(`q"x,y`)}
	text := copyFormat(t, "COPY t TO STDOUT", false)
	if got, want := string(text.AppendCopyRow(nil, cells)), "a\\tb\\nc\\\\d\\re\x01|\t\\N\t\tq\"x,y\n"; got != want {
		t.Errorf("text: got %q, want %q", got, want)
	}
	pipe := copyFormat(t, "COPY t TO STDOUT (DELIMITER '|', NULL 'nil')", false)
	if got, want := string(pipe.AppendCopyRow(nil, cells)), "a\\tb\\nc\\\\d\\re\x01\\||nil||q\"x,y\n"; got != want {
		t.Errorf("text |: got %q, want %q", got, want)
	}
	csv := copyFormat(t, "COPY t TO STDOUT (FORMAT csv)", false)
	if got, want := string(csv.AppendCopyRow(nil, cells)), "\"a\tb\nc\\d\re\x01|\",,\"\",\"q\"\"x,y\"\n"; got != want {
		t.Errorf("csv: got %q, want %q", got, want)
	}
	if got, want := string(csv.AppendCopyRow(nil, [][]byte{[]byte(`\.`)})), "\"\\.\"\n"; got != want {
		t.Errorf("csv \\.: got %q, want %q", got, want)
	}
	esc := copyFormat(t, "COPY t TO STDOUT (FORMAT csv, ESCAPE '\\', FORCE_QUOTE *)", false)
	if got, want := string(esc.AppendCopyRow(nil, [][]byte{[]byte(`a"b\c`), []byte("1"), nil})), "\"a\\\"b\\\\c\",\"1\",\n"; got != want {
		t.Errorf("csv escape: got %q, want %q", got, want)
	}
	if got, want := string(esc.AppendCopyHeader(nil, []string{"id", "a,b"})), "id,\"a,b\"\n"; got != want {
		t.Errorf("csv header: got %q, want %q", got, want)
	}
}

// FuzzCopyReader: any input yields rows or an error, never a panic, and
// every row has one value per column.
func FuzzCopyReader(f *testing.F) {
	for _, s := range []string{"1\t\\N\n", "a,\"b\nc\",\"\"\n", "\\.\n", "x\\", "\"\"\"\r\n"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data string, csv bool) {
		sql := "COPY t FROM STDIN (HEADER false)"
		if csv {
			sql = "COPY t FROM STDIN (FORMAT csv, ESCAPE '\\', FORCE_NOT_NULL (b))"
		}
		format := copyFormat(t, sql, true)
		if err := format.Bind([]string{"a", "b"}); err != nil {
			t.Fatal(err)
		}
		r := NewCopyReader(strings.NewReader(data), &format, "t", []string{"a", "b"})
		vals := make([]any, 2)
		for i := 0; i < 1000; i++ {
			line, err := r.Next(vals)
			if err != nil {
				return
			}
			if line < 1 {
				t.Fatalf("line %d", line)
			}
		}
	})
}
