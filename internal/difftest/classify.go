package difftest

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Reasons a divergence group is given in the report.
const (
	EngineLimit = "DuckDB engine limit"
	NotDone     = "not done yet"
)

// Groups, with the reason each is filed under. The report explains them.
var groupReasons = map[string]string{
	gMissingFunc:    NotDone,
	gFuncArgs:       NotDone,
	gMissingType:    NotDone,
	gInputFormat:    NotDone,
	gNumericSpecial: EngineLimit,
	gSyntax:         NotDone,
	gCascade:        NotDone,
	gSetting:        NotDone,
	gPgDDL:          EngineLimit,
	gNotImpl:        EngineLimit,
	gBinder:         NotDone,
	gVsqlOnlyError:  NotDone,
	gPGOnlyError:    NotDone,
	gErrClass:       NotDone,
	gTag:            NotDone,
	gShape:          NotDone,
	gNullOrder:      NotDone,
	gOrder:          NotDone,
	gRowCount:       NotDone,
	gBool:           NotDone,
	gNumFormat:      NotDone,
	gNumValue:       NotDone,
	gDateTime:       NotDone,
	gInterval:       NotDone,
	gArray:          NotDone,
	gJSON:           NotDone,
	gFloatSpecial:   NotDone,
	gValues:         NotDone,
	gColumns:        NotDone,
	gCatalog:        NotDone,
	gTxn:            NotDone,
	gUnsupportedCmd: EngineLimit,
}

const (
	gMissingFunc    = "missing function"
	gFuncArgs       = "function exists, not for these argument types"
	gMissingType    = "type missing"
	gInputFormat    = "input format refused"
	gNumericSpecial = "numeric NaN or Infinity"
	gSyntax         = "syntax vsqld does not accept"
	gCascade        = "object missing because an earlier statement diverged"
	gSetting        = "SET/SHOW/RESET of a PostgreSQL setting"
	gPgDDL          = "PostgreSQL-only DDL (functions, triggers, rules, domains, operators, inheritance, …)"
	gUnsupportedCmd = "PostgreSQL-only command (EXPLAIN, LISTEN, VACUUM options, locks, cursor features, …)"
	gNotImpl        = "not implemented in DuckDB"
	gBinder         = "binder error (name resolution, GROUP BY, implicit casts)"
	gVsqlOnlyError  = "other error vsqld raises where PostgreSQL answers"
	gPGOnlyError    = "error PostgreSQL raises that vsqld does not"
	gErrClass       = "both fail, different SQLSTATE class"
	gTag            = "command tag or row count differs"
	gShape          = "one side returns rows, the other none"
	gNullOrder      = "NULL ordering"
	gOrder          = "row order differs under ORDER BY (ties, collation)"
	gRowCount       = "different number of rows"
	gColumns        = "different number of columns"
	gBool           = "output format: boolean"
	gNumFormat      = "output format: numeric/float (scale, digits, exponent)"
	gNumValue       = "different numeric value"
	gDateTime       = "date/time value or output format"
	gInterval       = "output format: interval"
	gArray          = "output format: arrays"
	gJSON           = "json/jsonb value or output format"
	gFloatSpecial   = "output format: Infinity/NaN"
	gValues         = "different values"
	gCatalog        = "system catalog / information schema answers"
	gTxn            = "transaction state (aborted transaction, savepoints)"
)

// GroupReason is the reason a group is filed under.
func GroupReason(group string) string {
	if r, ok := groupReasons[group]; ok {
		return r
	}
	return NotDone
}

var (
	reFunc      = regexp.MustCompile(`(?i)function with name "?([\w.]+)"? does not exist`)
	reFuncPG    = regexp.MustCompile(`(?i)function ([\w.]+)\(.*\) does not exist`)
	reFuncArgs  = regexp.MustCompile(`(?i)No function matches the given name and argument types '([^(']+)\(`)
	reType      = regexp.MustCompile(`(?i)type (?:with name )?"?([\w. ]+?)"? does not exist`)
	reConvert   = regexp.MustCompile(`(?i)(could not convert|conversion error|invalid input|could not parse|could not cast|unimplemented type for cast|is not a valid|malformed)`)
	reConvertTo = regexp.MustCompile(`(?i)\bto (\w+)`)
	reSyntax    = regexp.MustCompile(`(?i)(parser error|syntax error)`)
	reNear      = regexp.MustCompile(`(?i)at or near "([^"]*)"`)
	reMissingT  = regexp.MustCompile(`(?i)(table|view|relation|schema|sequence|index|column) (with name )?"?[\w.]+"? (does not exist|not found)|Referenced column|Referenced table`)
	reSetting   = regexp.MustCompile(`(?i)(unrecognized configuration parameter|unrecognized (setting|option)|setting .*not found|unrecognized_setting|Catalog Error: unrecognized)`)
	reSetStmt   = regexp.MustCompile(`(?is)^\s*(set|show|reset)\b`)
	reNotImpl   = regexp.MustCompile(`(?i)not implemented`)
	reBinder    = regexp.MustCompile(`(?i)binder error`)
	reTxn       = regexp.MustCompile(`(?i)(transaction is aborted|current transaction|savepoint|TransactionContext)`)
	rePgDDL     = regexp.MustCompile(`(?is)^\s*(create|alter|drop)\s+(or\s+replace\s+)?(temp\s+|temporary\s+)?(function|procedure|trigger|rule|domain|operator|aggregate|collation|conversion|cast|extension|event|policy|publication|subscription|statistics|text search|access method|foreign|server|user mapping|language|tablespace|role|user|group|type)\b|^\s*create\b.*\binherits\s*\(|^\s*do\s|^\s*comment\s+on|^\s*(grant|revoke|security label|alter default privileges)\b`)
	// 'NaN'::numeric, 'Infinity'::numeric, a float's NaN or infinity cast
	// to numeric: DuckDB's DECIMAL holds neither
	reNumericSpecial = regexp.MustCompile(`(?i)(string "\s*[+-]?(nan|inf|infinity)\s*" to DECIMAL|value -?(nan|inf) to DECIMAL)`)
	reExplain        = regexp.MustCompile(`(?is)^\s*explain\b`)
	reCmd            = regexp.MustCompile(`(?is)^\s*(declare|fetch|move|close|prepare|execute|deallocate|listen|notify|unlisten|lock|vacuum|analyze|cluster|reindex|discard|refresh|explain|load|checkpoint|truncate\s.*\b(restart|continue)\s+identity|select\s+pg_)`)
	reCatalog        = regexp.MustCompile(`(?i)\b(pg_[a-z_]+|information_schema|regclass|regproc|regtype|oid)\b`)
	reDateTime       = regexp.MustCompile(`^\s*-?\d{1,4}-\d\d-\d\d|\d\d:\d\d(:\d\d)?|^(infinity|-infinity)$|(?i)\b(BC|AD)\b`)
	reInterval       = regexp.MustCompile(`(?i)\b(year|mon|day|hour|min|sec)s?\b|^@`)
	reQuoted         = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	reDigits         = regexp.MustCompile(`\d+`)
)

// compare returns "" when the two answers agree, else the divergence's
// group and a key within it.
func compare(st Stmt, sql string, pa, va *answer) (group, key string) {
	switch {
	case pa.isErr() && va.isErr():
		if pa.code[:2] == va.code[:2] {
			return "", ""
		}
		return gErrClass, "PostgreSQL " + pa.code[:2] + ", vsqld " + va.code[:2]
	case va.other != "":
		return gVsqlOnlyError, "client error: " + shorten(va.other, 60)
	case !pa.isErr() && va.isErr():
		return vsqldError(sql, va)
	case pa.isErr() && !va.isErr():
		return gPGOnlyError, pa.code + " " + errKey(pa.msg)
	}
	if pa.fields == nil && va.fields == nil {
		if tagCount(pa.tag) != tagCount(va.tag) {
			return gTag, verb(pa.tag) + " → " + verb(va.tag)
		}
		return "", ""
	}
	if (pa.fields == nil) != (va.fields == nil) {
		return gShape, "PostgreSQL " + shorten(pa.tag, 30) + ", vsqld " + shorten(va.tag, 30)
	}
	pr, vr := rowsText(st, pa.rows), rowsText(st, va.rows)
	if equal(pr, vr) {
		return "", ""
	}
	if reExplain.MatchString(sql) {
		return gUnsupportedCmd, "EXPLAIN" // a plan of DuckDB's, which differs by nature
	}
	if len(pa.rows) > 0 && len(va.rows) > 0 && len(pa.rows[0]) != len(va.rows[0]) {
		return gColumns, ""
	}
	if len(pr) == len(vr) {
		ps, vs := append([]string(nil), pr...), append([]string(nil), vr...)
		sort.Strings(ps)
		sort.Strings(vs)
		if equal(ps, vs) {
			ordered, cols := orderColumns(sql, pa.fields)
			if !ordered {
				// no ORDER BY of the result: any order is PostgreSQL's
				// answer too
				return "", ""
			}
			if cols != nil && tiesAgree(st, pa.rows, va.rows, cols) {
				// sorted as the ORDER BY says; rows with equal keys
				// in another order
				return "", ""
			}
			for i := range pr {
				if pr[i] != vr[i] && (strings.Contains(pr[i], "\x00NULL") || strings.Contains(vr[i], "\x00NULL")) {
					return gNullOrder, ""
				}
			}
			return gOrder, ""
		}
	}
	if reCatalog.MatchString(sql) {
		return gCatalog, catalogKey(sql)
	}
	if len(pa.rows) != len(va.rows) {
		return gRowCount, ""
	}
	// the first cell that differs says what kind of difference it is
	for i := range pa.rows {
		for j := range pa.rows[i] {
			if j >= len(va.rows[i]) {
				return gColumns, ""
			}
			p, v := pa.rows[i][j], va.rows[i][j]
			if (p == nil) != (v == nil) {
				return gValues, "NULL on one side"
			}
			if p == nil || cell(st, j, p) == cell(st, j, v) {
				continue
			}
			return valueGroup(*p, *v)
		}
	}
	return gValues, ""
}

func valueGroup(p, v string) (string, string) {
	switch {
	case (p == "t" || p == "f") && (v == "true" || v == "false" || v == "1" || v == "0"):
		return gBool, p + " vs " + v
	case isSpecialFloat(p) || isSpecialFloat(v):
		return gFloatSpecial, shorten(p, 20) + " vs " + shorten(v, 20)
	}
	pf, perr := strconv.ParseFloat(p, 64)
	vf, verr := strconv.ParseFloat(v, 64)
	if perr == nil && verr == nil {
		if pf == vf || (pf != 0 && abs((pf-vf)/pf) < 1e-12) {
			return gNumFormat, shorten(p, 25) + " vs " + shorten(v, 25)
		}
		return gNumValue, shorten(p, 25) + " vs " + shorten(v, 25)
	}
	if strings.HasPrefix(p, "{") || strings.HasPrefix(p, "[") || strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		var pj, vj any
		if json.Unmarshal([]byte(p), &pj) == nil && json.Unmarshal([]byte(v), &vj) == nil {
			return gJSON, shorten(p, 30) + " vs " + shorten(v, 30)
		}
		if strings.HasPrefix(p, "{") && strings.HasPrefix(v, "[") {
			return gArray, shorten(p, 30) + " vs " + shorten(v, 30)
		}
		if json.Unmarshal([]byte(p), &pj) == nil || json.Unmarshal([]byte(v), &vj) == nil {
			return gJSON, shorten(p, 30) + " vs " + shorten(v, 30)
		}
	}
	if reDateTime.MatchString(p) || reDateTime.MatchString(v) {
		return gDateTime, shorten(p, 35) + " vs " + shorten(v, 35)
	}
	if reInterval.MatchString(p) && reInterval.MatchString(v) {
		return gInterval, shorten(p, 30) + " vs " + shorten(v, 30)
	}
	return gValues, shorten(p, 30) + " vs " + shorten(v, 30)
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func isSpecialFloat(s string) bool {
	switch strings.ToLower(s) {
	case "infinity", "-infinity", "nan", "inf", "-inf":
		return true
	}
	return false
}

// vsqldError classifies an error vsqld raised where PostgreSQL answered.
func vsqldError(sql string, va *answer) (string, string) {
	msg := va.msg
	switch {
	case rePgDDL.MatchString(sql):
		f := strings.Fields(strings.ToLower(sql))
		k := strings.Join(f[:min(len(f), 2)], " ")
		if strings.Contains(strings.ToLower(sql), "inherits") {
			k = "INHERITS"
		}
		return gPgDDL, strings.ToUpper(k)
	case reSetStmt.MatchString(sql):
		f := strings.Fields(sql)
		name := ""
		if len(f) > 1 {
			name = strings.ToLower(strings.Trim(f[1], ";"))
			if (name == "local" || name == "session") && len(f) > 2 {
				name = strings.ToLower(f[2])
			}
		}
		return gSetting, name
	case reCmd.MatchString(sql):
		f := strings.Fields(strings.ToUpper(sql))
		return gUnsupportedCmd, f[0]
	case reTxn.MatchString(msg):
		return gTxn, errKey(msg)
	}
	if m := reFunc.FindStringSubmatch(msg); m != nil {
		return gMissingFunc, strings.ToLower(m[1])
	}
	if m := reFuncPG.FindStringSubmatch(msg); m != nil {
		return gMissingFunc, strings.ToLower(m[1])
	}
	if m := reFuncArgs.FindStringSubmatch(msg); m != nil {
		return gFuncArgs, strings.ToLower(m[1])
	}
	if m := reType.FindStringSubmatch(msg); m != nil {
		return gMissingType, strings.ToLower(m[1])
	}
	if reSetting.MatchString(msg) {
		return gSetting, errKey(msg)
	}
	if reMissingT.MatchString(msg) {
		return gCascade, ""
	}
	if reNumericSpecial.MatchString(msg) {
		return gNumericSpecial, ""
	}
	if reConvert.MatchString(msg) {
		k := ""
		if m := reConvertTo.FindAllStringSubmatch(msg, -1); m != nil {
			k = strings.ToUpper(m[len(m)-1][1])
		}
		return gInputFormat, k
	}
	if reSyntax.MatchString(msg) {
		k := ""
		if m := reNear.FindStringSubmatch(msg); m != nil {
			k = strings.ToUpper(m[1])
		}
		return gSyntax, k
	}
	if reNotImpl.MatchString(msg) {
		return gNotImpl, errKey(msg)
	}
	if reCatalog.MatchString(sql) {
		return gCatalog, catalogKey(sql)
	}
	if reBinder.MatchString(msg) {
		return gBinder, errKey(msg)
	}
	return gVsqlOnlyError, va.code + " " + errKey(msg)
}

var reCatalogName = regexp.MustCompile(`(?i)\b(pg_[a-z_]+|information_schema\.\w+|regclass|regproc|regtype)\b`)

func catalogKey(sql string) string {
	if m := reCatalogName.FindString(sql); m != "" {
		return strings.ToLower(m)
	}
	return ""
}

// errKey is an error message with its specifics (quoted values, numbers,
// the part after a colon) removed, so that like errors group together.
func errKey(msg string) string {
	m := msg
	if i := strings.Index(m, "\n"); i >= 0 {
		m = m[:i]
	}
	if i := strings.Index(m, ": "); i >= 0 && i < 40 && strings.Contains(m[:i], "Error") {
		m = m[i+2:] // "Binder Error: …"
	}
	if i := strings.Index(m, ": "); i > 0 {
		m = m[:i]
	}
	m = reQuoted.ReplaceAllString(m, "…")
	m = reDigits.ReplaceAllString(m, "N")
	return shorten(m, 70)
}

// tagCount is the row count of a command tag ("INSERT 0 5" → "INSERT 5";
// "" for tags without one, which are not compared).
func tagCount(tag string) string {
	f := strings.Fields(tag)
	if len(f) < 2 {
		return ""
	}
	last := f[len(f)-1]
	if _, err := strconv.Atoi(last); err != nil {
		return ""
	}
	return f[0] + " " + last
}

func verb(tag string) string {
	f := strings.Fields(tag)
	if len(f) == 0 {
		return "(none)"
	}
	if len(f) > 1 {
		if _, err := strconv.Atoi(f[len(f)-1]); err == nil {
			return f[0] + " n"
		}
	}
	return tag
}
