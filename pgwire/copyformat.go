package pgwire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// CopyFormat is how the rows of a COPY are written: PostgreSQL's text or
// CSV format with their options. The zero value is not valid; use
// ParseCopyOptions.
type CopyFormat struct {
	CSV         bool
	Binary      bool // refused by the server, kept so it can say so
	Delimiter   byte
	Null        string
	Quote       byte // CSV only
	Escape      byte // CSV only
	Header      bool
	HeaderMatch bool // COPY FROM: the header must name the columns in order
	// Column names of FORCE_QUOTE (or all with ForceQuoteAll),
	// FORCE_NOT_NULL and FORCE_NULL, resolved by Bind.
	ForceQuote, ForceNotNull, ForceNull []string
	ForceQuoteAll                       bool

	forceQuote, forceNotNull, forceNull []bool
}

func copyOptionError(format string, args ...any) error {
	return vsqlerr.New(vsqlerr.CopyOption, format, args...)
}

// ParseCopyOptions checks the options of a COPY statement (from is true
// for COPY FROM) the way PostgreSQL does and returns the format.
func ParseCopyOptions(opts []sqltext.CopyOption, from bool) (CopyFormat, error) {
	f := CopyFormat{}
	seen := map[string]bool{}
	var delim, null, quote, escape *string
	for _, o := range opts {
		if seen[o.Name] {
			return f, vsqlerr.New(vsqlerr.CopySyntax, "conflicting or redundant options: %s", o.Name)
		}
		seen[o.Name] = true
		val := o.Value
		needString := func() error {
			if !o.HasValue || o.Columns != nil || o.Star {
				return copyOptionError("%s requires a string value", o.Name)
			}
			return nil
		}
		switch o.Name {
		case "format":
			if err := needString(); err != nil {
				return f, err
			}
			switch strings.ToLower(val) {
			case "text":
			case "csv":
				f.CSV = true
			case "binary":
				f.Binary = true
			default:
				return f, copyOptionError("COPY format %q not recognized", val)
			}
		case "header":
			if o.Columns != nil || o.Star {
				return f, copyOptionError("header requires a Boolean value or \"match\"")
			}
			switch strings.ToLower(val) {
			case "", "true", "on", "1", "t", "yes":
				f.Header = true
			case "false", "off", "0", "f", "no":
			case "match":
				if !from {
					return f, copyOptionError("cannot use \"match\" with HEADER in COPY TO")
				}
				f.Header, f.HeaderMatch = true, true
			default:
				return f, copyOptionError("header requires a Boolean value or \"match\"")
			}
		case "delimiter", "null", "quote", "escape", "encoding":
			if err := needString(); err != nil {
				return f, err
			}
			v := val
			switch o.Name {
			case "delimiter":
				delim = &v
			case "null":
				null = &v
			case "quote":
				quote = &v
			case "escape":
				escape = &v
			case "encoding":
				switch strings.ToUpper(strings.ReplaceAll(v, "-", "")) {
				case "UTF8", "UNICODE":
				default:
					return f, copyOptionError("encoding %q is not supported: vsql reads and writes UTF8", v)
				}
			}
		case "force_quote":
			if !o.Star && o.Columns == nil {
				return f, copyOptionError("force_quote requires a column list or *")
			}
			f.ForceQuote, f.ForceQuoteAll = o.Columns, o.Star
		case "force_not_null", "force_null":
			if o.Columns == nil {
				return f, copyOptionError("%s requires a column list", o.Name)
			}
			if o.Name == "force_null" {
				f.ForceNull = o.Columns
			} else {
				f.ForceNotNull = o.Columns
			}
		case "freeze":
			// Accepted and ignored: there is nothing to freeze.
		default:
			return f, copyOptionError("option %q not recognized", o.Name)
		}
	}
	if f.Binary {
		if delim != nil || null != nil || quote != nil || escape != nil || f.Header || f.CSV {
			return f, copyOptionError("cannot specify text or CSV options in BINARY mode")
		}
		return f, nil
	}
	f.Delimiter, f.Null, f.Quote, f.Escape = '\t', `\N`, '"', '"'
	if f.CSV {
		f.Delimiter, f.Null = ',', ""
	}
	one := func(name string, s *string, dst *byte) error {
		if s == nil {
			return nil
		}
		if len(*s) != 1 {
			return copyOptionError("COPY %s must be a single one-byte character", name)
		}
		*dst = (*s)[0]
		return nil
	}
	if err := one("delimiter", delim, &f.Delimiter); err != nil {
		return f, err
	}
	if null != nil {
		f.Null = *null
	}
	if !f.CSV && (quote != nil || escape != nil) {
		return f, copyOptionError("COPY quote and escape are available only in CSV mode")
	}
	if err := one("quote", quote, &f.Quote); err != nil {
		return f, err
	}
	f.Escape = f.Quote
	if err := one("escape", escape, &f.Escape); err != nil {
		return f, err
	}
	switch {
	case f.Delimiter == '\n' || f.Delimiter == '\r':
		return f, copyOptionError("COPY delimiter cannot be newline or carriage return")
	case strings.ContainsAny(f.Null, "\r\n"):
		return f, copyOptionError("COPY null representation cannot use newline or carriage return")
	case !f.CSV && (f.Delimiter == '\\' || strings.IndexByte("abcdefghijklmnopqrstuvwxyz0123456789.", f.Delimiter) >= 0):
		return f, copyOptionError("COPY delimiter cannot be %q", string(f.Delimiter))
	case f.CSV && f.Delimiter == f.Quote:
		return f, copyOptionError("COPY delimiter and quote must be different")
	case strings.IndexByte(f.Null, f.Delimiter) >= 0:
		return f, copyOptionError("COPY delimiter must not appear in the NULL specification")
	case f.CSV && strings.IndexByte(f.Null, f.Quote) >= 0:
		return f, copyOptionError("CSV quote character must not appear in the NULL specification")
	case !f.CSV && (f.ForceQuote != nil || f.ForceQuoteAll || f.ForceNotNull != nil || f.ForceNull != nil):
		return f, copyOptionError("FORCE_QUOTE, FORCE_NOT_NULL and FORCE_NULL are available only in CSV mode")
	case from && (f.ForceQuote != nil || f.ForceQuoteAll):
		return f, copyOptionError("COPY FORCE_QUOTE cannot be used with COPY FROM")
	case !from && (f.ForceNotNull != nil || f.ForceNull != nil):
		return f, copyOptionError("COPY FORCE_NOT_NULL and FORCE_NULL cannot be used with COPY TO")
	}
	return f, nil
}

// Bind resolves the FORCE_* column lists against the columns of the COPY.
func (f *CopyFormat) Bind(cols []string) error {
	resolve := func(opt string, names []string) ([]bool, error) {
		if names == nil {
			return nil, nil
		}
		out := make([]bool, len(cols))
	next:
		for _, n := range names {
			for i, c := range cols {
				if c == n {
					out[i] = true
					continue next
				}
			}
			return nil, copyOptionError("%s column %q not referenced by COPY", opt, n)
		}
		return out, nil
	}
	var err error
	if f.forceQuote, err = resolve("FORCE_QUOTE", f.ForceQuote); err != nil {
		return err
	}
	if f.forceNotNull, err = resolve("FORCE_NOT_NULL", f.ForceNotNull); err != nil {
		return err
	}
	f.forceNull, err = resolve("FORCE_NULL", f.ForceNull)
	return err
}

// CopyReader reads the rows of a COPY FROM STDIN in text or CSV format.
type CopyReader struct {
	r     *bufio.Reader
	f     *CopyFormat
	table string
	names []string
	line  int64
	done  bool
	cur   []byte // the current line, for error context
	// scratch space, reused from row to row
	rec    []byte
	fields [][]byte
	quoted []bool
	starts []int
}

// NewCopyReader reads rows for the named columns of table (the table name is
// used in error messages only).
func NewCopyReader(r io.Reader, f *CopyFormat, table string, names []string) *CopyReader {
	return &CopyReader{r: bufio.NewReaderSize(r, 256<<10), f: f, table: table, names: names}
}

// Line is the number of the last line read (one per row, as PostgreSQL
// counts: a CSV row spanning several lines is one line).
func (r *CopyReader) Line() int64 { return r.line }

// Next fills dst (one value per column) with the next row: a string, or nil
// for NULL. It returns the row's line number, or io.EOF after the last row.
func (r *CopyReader) Next(dst []any) (int64, error) {
	for {
		if r.done {
			return 0, io.EOF
		}
		fields, ok, err := r.record()
		if err != nil {
			return 0, err
		}
		if !ok {
			r.done = true
			return 0, io.EOF
		}
		if r.line == 1 && r.f.Header {
			if err := r.checkHeader(fields); err != nil {
				return 0, err
			}
			continue
		}
		if len(fields) < len(r.names) {
			return 0, r.formatError("missing data for column %q", r.names[len(fields)])
		}
		if len(fields) > len(r.names) {
			return 0, r.formatError("extra data after last expected column")
		}
		for i, fld := range fields {
			switch {
			case fld == nil:
				dst[i] = nil
			default:
				if !utf8.Valid(fld) {
					return 0, r.formatError("invalid byte sequence for encoding \"UTF8\"")
				}
				dst[i] = string(fld)
			}
		}
		return r.line, nil
	}
}

func (r *CopyReader) checkHeader(fields [][]byte) error {
	if !r.f.HeaderMatch {
		return nil
	}
	if len(fields) != len(r.names) {
		return r.formatError("wrong number of fields in header line: got %d, expected %d", len(fields), len(r.names))
	}
	for i, fld := range fields {
		if fld == nil {
			return r.formatError("column name mismatch in header line field %d: got null value (%q), expected %q", i+1, r.f.Null, r.names[i])
		}
		if string(fld) != r.names[i] {
			return r.formatError("column name mismatch in header line field %d: got %q, expected %q", i+1, string(fld), r.names[i])
		}
	}
	return nil
}

// formatError is a bad_copy_file_format error naming the current line.
func (r *CopyReader) formatError(format string, args ...any) error {
	e := vsqlerr.New(vsqlerr.CopyBadFormat, format, args...)
	where := "COPY " + r.table + ", line " + strconv.FormatInt(r.line, 10)
	e.Message = where + ": " + e.Message
	e.Where = where
	if r.cur != nil {
		shown := string(r.cur)
		if len(shown) > 100 {
			// cut at a character boundary, as PostgreSQL's CONTEXT does
			cut := 100
			for cut > 0 && !utf8.RuneStart(shown[cut]) {
				cut--
			}
			shown = shown[:cut] + "..."
		}
		e.Where += ": \"" + shown + "\""
	}
	return e
}

// readLine returns the next physical line with its terminator (nil at the
// end of the data). The slice is valid until the next call.
func (r *CopyReader) readLine() ([]byte, error) {
	line, err := r.r.ReadSlice('\n')
	if err == nil || (errors.Is(err, io.EOF) && len(line) > 0) {
		return line, nil
	}
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	long := append([]byte(nil), line...)
	for {
		line, err = r.r.ReadSlice('\n')
		long = append(long, line...)
		switch {
		case err == nil, errors.Is(err, io.EOF):
			return long, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

func trimEOL(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	return line
}

// endMarker handles a \. line: the end of the data. Anything after it is
// read and dropped, as PostgreSQL does.
func (r *CopyReader) endMarker() error {
	_, err := io.Copy(io.Discard, r.r)
	return err
}

// record reads one row's fields (nil = NULL); ok is false at the end.
func (r *CopyReader) record() ([][]byte, bool, error) {
	line, err := r.readLine()
	if err != nil || line == nil {
		return nil, false, err
	}
	r.line++
	body := trimEOL(line)
	r.cur = body
	if len(body) == 2 && body[0] == '\\' && body[1] == '.' {
		return nil, false, r.endMarker()
	}
	if r.f.CSV {
		return r.csvRecord(line)
	}
	return r.textRecord(body)
}

// textRecord splits a text-format line at unescaped delimiters and decodes
// backslash escapes.
func (r *CopyReader) textRecord(line []byte) ([][]byte, bool, error) {
	if bytes.IndexByte(line, '\r') >= 0 {
		e := r.formatError("literal carriage return found in data")
		return nil, false, e.(*vsqlerr.Error).WithHint("Use \"\\r\" to represent carriage return.")
	}
	delim := r.f.Delimiter
	r.fields = r.fields[:0]
	r.rec = r.rec[:0]
	start, escaped := 0, false
	for i := 0; i <= len(line); i++ {
		if i < len(line) {
			c := line[i]
			if c == '\\' {
				if i+1 >= len(line) {
					return nil, false, r.formatError("unterminated backslash escape at the end of the line")
				}
				escaped = true
				i++
				continue
			}
			if c != delim {
				continue
			}
		}
		raw := line[start:i]
		switch {
		case string(raw) == r.f.Null:
			r.fields = append(r.fields, nil)
		case !escaped:
			r.fields = append(r.fields, raw)
		default:
			s := len(r.rec)
			r.rec = unescapeText(r.rec, raw)
			r.fields = append(r.fields, r.rec[s:len(r.rec):len(r.rec)])
		}
		start, escaped = i+1, false
	}
	return r.fields, true, nil
}

// unescapeText appends raw with the text format's backslash escapes decoded.
func unescapeText(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		i++
		switch e := raw[i]; {
		case e == 'b':
			dst = append(dst, '\b')
		case e == 'f':
			dst = append(dst, '\f')
		case e == 'n':
			dst = append(dst, '\n')
		case e == 'r':
			dst = append(dst, '\r')
		case e == 't':
			dst = append(dst, '\t')
		case e == 'v':
			dst = append(dst, '\v')
		case e >= '0' && e <= '7':
			n, j := 0, i
			for ; j < len(raw) && j < i+3 && raw[j] >= '0' && raw[j] <= '7'; j++ {
				n = n*8 + int(raw[j]-'0')
			}
			dst = append(dst, byte(n))
			i = j - 1
		case e == 'x' && i+1 < len(raw) && hexDigit(raw[i+1]) >= 0:
			n, j := 0, i+1
			for ; j < len(raw) && j < i+3 && hexDigit(raw[j]) >= 0; j++ {
				n = n*16 + hexDigit(raw[j])
			}
			dst = append(dst, byte(n))
			i = j - 1
		default:
			dst = append(dst, e)
		}
	}
	return dst
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// csvRecord parses one CSV record starting with line (terminator
// included); quoted fields may continue on the following lines.
func (r *CopyReader) csvRecord(line []byte) ([][]byte, bool, error) {
	f := r.f
	r.rec = r.rec[:0]
	r.starts = r.starts[:0]
	r.quoted = r.quoted[:0]
	fieldStart, quoted, inQuote := 0, false, false
	for {
		i, bodyLen := 0, len(trimEOL(line))
		for i < len(line) {
			if !inQuote && i >= bodyLen {
				break // the line's terminator
			}
			c := line[i]
			if inQuote {
				switch {
				case c == f.Escape && i+1 < len(line) && (line[i+1] == f.Quote || line[i+1] == f.Escape) && (f.Escape != f.Quote || line[i+1] == f.Quote):
					r.rec = append(r.rec, line[i+1])
					i += 2
				case c == f.Quote:
					inQuote = false
					i++
				default:
					r.rec = append(r.rec, c)
					i++
				}
				continue
			}
			switch c {
			case f.Delimiter:
				r.starts = append(r.starts, fieldStart)
				r.quoted = append(r.quoted, quoted)
				r.starts = append(r.starts, len(r.rec))
				fieldStart, quoted = len(r.rec), false
			case f.Quote:
				inQuote, quoted = true, true
			default:
				r.rec = append(r.rec, c)
			}
			i++
		}
		if !inQuote {
			break
		}
		// a newline inside quotes is data: the record goes on
		next, err := r.readLine()
		if err != nil {
			return nil, false, err
		}
		if next == nil {
			r.cur = nil
			return nil, false, r.formatError("unterminated CSV quoted field")
		}
		line = next
		r.cur = nil // the record spans lines: no one line to show
	}
	r.starts = append(r.starts, fieldStart)
	r.quoted = append(r.quoted, quoted)
	r.starts = append(r.starts, len(r.rec))
	// r.starts holds start/end pairs; the fields slice into r.rec only now
	// that it no longer grows.
	r.fields = r.fields[:0]
	for k := 0; k+1 < len(r.starts); k += 2 {
		col := k / 2
		fld := r.rec[r.starts[k]:r.starts[k+1]:r.starts[k+1]]
		q := r.quoted[col]
		isNull := string(fld) == f.Null
		switch {
		case isNull && !q && !(col < len(f.forceNotNull) && f.forceNotNull[col]):
			fld = nil
		case isNull && q && col < len(f.forceNull) && f.forceNull[col]:
			fld = nil
		case fld == nil:
			fld = emptyField // an empty string, not NULL
		}
		r.fields = append(r.fields, fld)
	}
	return r.fields, true, nil
}

var emptyField = []byte{}

// AppendCopyHeader appends the header line of a COPY TO.
func (f *CopyFormat) AppendCopyHeader(buf []byte, names []string) []byte {
	cells := make([][]byte, len(names))
	for i, n := range names {
		cells[i] = []byte(n)
	}
	saved, all := f.forceQuote, f.ForceQuoteAll
	f.forceQuote, f.ForceQuoteAll = nil, false // names are quoted only where needed
	buf = f.AppendCopyRow(buf, cells)
	f.forceQuote, f.ForceQuoteAll = saved, all
	return buf
}

// AppendCopyRow appends one row of a COPY TO, the values already in
// PostgreSQL's text output format (nil = NULL), with its newline.
func (f *CopyFormat) AppendCopyRow(buf []byte, cells [][]byte) []byte {
	for i, v := range cells {
		if i > 0 {
			buf = append(buf, f.Delimiter)
		}
		if v == nil {
			buf = append(buf, f.Null...)
			continue
		}
		if f.CSV {
			force := f.ForceQuoteAll || (i < len(f.forceQuote) && f.forceQuote[i])
			buf = f.appendCSV(buf, v, force, len(cells) == 1)
		} else {
			buf = f.appendText(buf, v)
		}
	}
	return append(buf, '\n')
}

func (f *CopyFormat) appendText(buf, v []byte) []byte {
	for _, c := range v {
		switch {
		case c == '\\' || (c == f.Delimiter && c >= 0x20):
			buf = append(buf, '\\', c)
		case c >= 0x20:
			buf = append(buf, c)
		case c == '\b':
			buf = append(buf, '\\', 'b')
		case c == '\f':
			buf = append(buf, '\\', 'f')
		case c == '\n':
			buf = append(buf, '\\', 'n')
		case c == '\r':
			buf = append(buf, '\\', 'r')
		case c == '\t':
			buf = append(buf, '\\', 't')
		case c == '\v':
			buf = append(buf, '\\', 'v')
		case c == f.Delimiter:
			buf = append(buf, '\\', c)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

func (f *CopyFormat) appendCSV(buf, v []byte, quote, single bool) []byte {
	if !quote {
		switch {
		case string(v) == f.Null:
			quote = true
		case single && string(v) == `\.`:
			quote = true
		default:
			for _, c := range v {
				if c == f.Delimiter || c == f.Quote || c == '\n' || c == '\r' {
					quote = true
					break
				}
			}
		}
	}
	if !quote {
		return append(buf, v...)
	}
	buf = append(buf, f.Quote)
	for _, c := range v {
		if c == f.Quote || c == f.Escape {
			buf = append(buf, f.Escape)
		}
		buf = append(buf, c)
	}
	return append(buf, f.Quote)
}
