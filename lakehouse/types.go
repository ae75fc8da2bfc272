package lakehouse

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"

	"github.com/vsql/vsql/sqltext"
)

// duckType is a parsed DuckDB type as duckdb_columns() prints it.
type duckType struct {
	name   string      // upper case: INTEGER, DECIMAL, LIST, ARRAY, STRUCT, MAP, …
	raw    string      // the type as written
	width  int         // DECIMAL
	scale  int         // DECIMAL
	elem   *duckType   // LIST, ARRAY
	fields []duckField // STRUCT; MAP as key and value
}

type duckField struct {
	name string
	typ  *duckType
}

// parseDuckType reads a type string such as "DECIMAL(12,2)",
// "STRUCT(a INTEGER, \"b c\" VARCHAR[])" or "MAP(VARCHAR, INTEGER)".
func parseDuckType(s string) (*duckType, error) {
	p := &typeParser{s: s}
	t, err := p.typ()
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q in type %q", p.s[p.i:], s)
	}
	return t, nil
}

type typeParser struct {
	s string
	i int
}

func (p *typeParser) skipSpace() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *typeParser) peek(c byte) bool {
	p.skipSpace()
	return p.i < len(p.s) && p.s[p.i] == c
}

func (p *typeParser) expect(c byte) error {
	if !p.peek(c) {
		return fmt.Errorf("expected %q at %d in type %q", c, p.i, p.s)
	}
	p.i++
	return nil
}

// ident reads a bare word or a double-quoted name.
func (p *typeParser) ident() (string, error) {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '"' {
		var b strings.Builder
		for p.i++; p.i < len(p.s); p.i++ {
			if p.s[p.i] == '"' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '"' {
					b.WriteByte('"')
					p.i++
					continue
				}
				p.i++
				return b.String(), nil
			}
			b.WriteByte(p.s[p.i])
		}
		return "", fmt.Errorf("unterminated name in type %q", p.s)
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	if start == p.i {
		return "", fmt.Errorf("expected a name at %d in type %q", p.i, p.s)
	}
	return p.s[start:p.i], nil
}

func (p *typeParser) typ() (*duckType, error) {
	p.skipSpace()
	start := p.i
	word, err := p.ident()
	if err != nil {
		return nil, err
	}
	t := &duckType{name: strings.ToUpper(word)}
	// Multi-word names.
	for _, tail := range []string{" WITH TIME ZONE"} {
		if strings.HasPrefix(strings.ToUpper(p.s[p.i:]), tail) {
			t.name += tail
			p.i += len(tail)
		}
	}
	if p.peek('(') {
		p.i++
		switch t.name {
		case "DECIMAL", "NUMERIC":
			t.name = "DECIMAL"
			w, err := p.number()
			if err != nil {
				return nil, err
			}
			if err := p.expect(','); err != nil {
				return nil, err
			}
			sc, err := p.number()
			if err != nil {
				return nil, err
			}
			t.width, t.scale = w, sc
		case "STRUCT":
			for {
				name, err := p.ident()
				if err != nil {
					return nil, err
				}
				ft, err := p.typ()
				if err != nil {
					return nil, err
				}
				t.fields = append(t.fields, duckField{name, ft})
				if !p.peek(',') {
					break
				}
				p.i++
			}
		case "MAP":
			k, err := p.typ()
			if err != nil {
				return nil, err
			}
			if err := p.expect(','); err != nil {
				return nil, err
			}
			v, err := p.typ()
			if err != nil {
				return nil, err
			}
			t.fields = []duckField{{"key", k}, {"value", v}}
		default:
			// ENUM('a', 'b'), UNION(…) and others: skip to the closing
			// parenthesis; such types are refused or cast by name.
			depth := 1
			for ; p.i < len(p.s) && depth > 0; p.i++ {
				switch p.s[p.i] {
				case '(':
					depth++
				case ')':
					depth--
				case '\'':
					for p.i++; p.i < len(p.s) && p.s[p.i] != '\''; p.i++ {
					}
				}
			}
			p.i--
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
	}
	t.raw = p.s[start:p.i]
	for p.peek('[') {
		p.i++
		p.skipSpace()
		name := "LIST"
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			name = "ARRAY" // fixed size: exported as a list
		}
		if err := p.expect(']'); err != nil {
			return nil, err
		}
		t = &duckType{name: name, elem: t, raw: p.s[start:p.i]}
	}
	return t, nil
}

func (p *typeParser) number() (int, error) {
	p.skipSpace()
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return strconv.Atoi(p.s[start:p.i])
}

// icebergType maps a DuckDB type to Iceberg's, with the SQL expression that
// turns a value of the column (expr) into what the Parquet file must hold.
// nextID numbers nested fields (the catalog renumbers them when it creates
// the table; FIELD_IDS are taken from the table's schema afterwards).
func icebergType(t *duckType, nextID func() int) (iceberg.Type, error) {
	P := iceberg.PrimitiveTypes
	switch t.name {
	case "BOOLEAN":
		return P.Bool, nil
	case "TINYINT", "SMALLINT", "INTEGER", "UTINYINT", "USMALLINT":
		return P.Int32, nil
	case "BIGINT", "UINTEGER":
		return P.Int64, nil
	case "UBIGINT":
		return iceberg.DecimalTypeOf(20, 0), nil
	case "FLOAT":
		return P.Float32, nil
	case "DOUBLE":
		return P.Float64, nil
	case "DECIMAL":
		return iceberg.DecimalTypeOf(t.width, t.scale), nil
	case "VARCHAR", "JSON", "PG_JSON", "ENUM": // PG_JSON: vsql's json, text kept as written (pgcompat)
		return P.String, nil
	case "BLOB":
		return P.Binary, nil
	case "UUID":
		return P.UUID, nil
	case "DATE":
		return P.Date, nil
	case "TIME":
		return P.Time, nil
	case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS":
		return P.Timestamp, nil
	case "TIMESTAMP WITH TIME ZONE":
		return P.TimestampTz, nil
	case "LIST", "ARRAY":
		et, err := icebergType(t.elem, nextID)
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{ElementID: nextID(), Element: et}, nil
	case "STRUCT":
		st := &iceberg.StructType{}
		for _, f := range t.fields {
			ft, err := icebergType(f.typ, nextID)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", f.name, err)
			}
			st.FieldList = append(st.FieldList, iceberg.NestedField{ID: nextID(), Name: f.name, Type: ft})
		}
		return st, nil
	case "MAP":
		kt, err := icebergType(t.fields[0].typ, nextID)
		if err != nil {
			return nil, err
		}
		vt, err := icebergType(t.fields[1].typ, nextID)
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{KeyID: nextID(), KeyType: kt, ValueID: nextID(), ValueType: vt}, nil
	}
	why := "Iceberg has no such type"
	switch t.name {
	case "TIMESTAMP_NS":
		why = "Iceberg format 2 timestamps have microseconds"
	case "TIME WITH TIME ZONE", "TIMETZ":
		why = "Iceberg's time has no zone"
	case "HUGEINT", "UHUGEINT":
		why = "its values can have 39 digits and Iceberg's decimal has at most 38 (cast the column to DECIMAL(38,0) or BIGINT)"
	}
	return nil, fmt.Errorf("type %s cannot be exported: %s", t.name, why)
}

// selectExpr is the expression written to Parquet for a column of type t
// (value expr): the types whose Parquet form Iceberg would not read as
// the mapped type are cast.
func selectExpr(t *duckType, expr string) string {
	switch t.name {
	case "TINYINT", "SMALLINT", "UTINYINT", "USMALLINT":
		return "CAST(" + expr + " AS INTEGER)"
	case "UINTEGER":
		return "CAST(" + expr + " AS BIGINT)"
	case "UBIGINT":
		return "CAST(" + expr + " AS DECIMAL(20,0))"
	case "JSON", "ENUM":
		return "CAST(" + expr + " AS VARCHAR)"
	case "TIMESTAMP_S", "TIMESTAMP_MS":
		return "CAST(" + expr + " AS TIMESTAMP)"
	case "ARRAY":
		// Parquet has no fixed-size list; FIELD_IDS needs a LIST.
		return selectExpr(&duckType{name: "LIST", elem: t.elem}, "CAST("+expr+" AS "+t.elem.raw+"[])")
	case "LIST":
		if needsCast(t.elem) {
			return "list_transform(" + expr + ", x -> " + selectExpr(t.elem, "x") + ")"
		}
	case "STRUCT":
		if needsCast(t) {
			parts := make([]string, len(t.fields))
			for i, f := range t.fields {
				parts[i] = sqltext.QuoteString(f.name) + ": " + selectExpr(f.typ, expr+"."+sqltext.QuoteIdent(f.name))
			}
			return "CASE WHEN " + expr + " IS NULL THEN NULL ELSE {" + strings.Join(parts, ", ") + "} END"
		}
	case "MAP":
		if needsCast(t) {
			return "map_from_entries(list_transform(map_entries(" + expr + "), e -> {'key': " + selectExpr(t.fields[0].typ, "e.key") +
				", 'value': " + selectExpr(t.fields[1].typ, "e.value") + "}))"
		}
	}
	return expr
}

func needsCast(t *duckType) bool {
	switch t.name {
	case "ARRAY":
		return true
	case "LIST":
		return needsCast(t.elem)
	case "STRUCT", "MAP":
		for _, f := range t.fields {
			if needsCast(f.typ) {
				return true
			}
		}
		return false
	}
	return selectExpr(t, "x") != "x"
}

// fieldIDs writes DuckDB's FIELD_IDS option value for the columns of a
// table from its Iceberg schema: {col: id, lst: {__duckdb_field_id: id,
// element: id}, …}.
func fieldIDs(sc *iceberg.Schema, columns []string) string {
	parts := make([]string, 0, len(columns))
	for _, c := range columns {
		f, ok := sc.FindFieldByName(c)
		if !ok {
			continue
		}
		parts = append(parts, sqltext.QuoteString(c)+": "+fieldIDValue(f.ID, f.Type))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func fieldIDValue(id int, t iceberg.Type) string {
	switch t := t.(type) {
	case *iceberg.ListType:
		return fmt.Sprintf("{__duckdb_field_id: %d, element: %s}", id, fieldIDValue(t.ElementID, t.Element))
	case *iceberg.StructType:
		parts := []string{fmt.Sprintf("__duckdb_field_id: %d", id)}
		for _, f := range t.FieldList {
			parts = append(parts, sqltext.QuoteString(f.Name)+": "+fieldIDValue(f.ID, f.Type))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *iceberg.MapType:
		return fmt.Sprintf("{__duckdb_field_id: %d, key: %s, value: %s}", id, fieldIDValue(t.KeyID, t.KeyType), fieldIDValue(t.ValueID, t.ValueType))
	}
	return strconv.Itoa(id)
}
