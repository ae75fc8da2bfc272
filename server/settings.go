package server

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL session settings that clients set, reset and show on connect
// (pgjdbc: extra_float_digits, application_name; psqlODBC: DateStyle,
// extra_float_digits; poolers: RESET ALL). vsql keeps them per session with
// PostgreSQL's names and answers; DuckDB never sees them, except TimeZone,
// which also sets DuckDB's for the session.
type setting struct {
	def string
	// normalize validates a new value and returns it as SHOW reports it.
	normalize func(v string) (string, error)
	readOnly  bool
	report    bool // sent as ParameterStatus when it changes
}

func anyValue(v string) (string, error) { return v, nil }

func oneOf(name string, allowed ...string) func(string) (string, error) {
	return func(v string) (string, error) {
		for _, a := range allowed {
			if strings.EqualFold(v, a) {
				return a, nil
			}
		}
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q", name, v).
			WithHint("vsql supports: %s.", strings.Join(allowed, ", "))
	}
}

func intRange(name string, lo, hi int) func(string) (string, error) {
	return func(v string) (string, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo || n > hi {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q (an integer from %d to %d)", name, v, lo, hi)
		}
		return strconv.Itoa(n), nil
	}
}

// duration accepts PostgreSQL's forms: 0, 5000 (ms), '5s', '1min', '2h'.
func durationSetting(name string) func(string) (string, error) {
	return func(v string) (string, error) {
		v = strings.TrimSpace(v)
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return strconv.Itoa(n), nil
		}
		for _, u := range []struct{ suffix, goUnit string }{{"ms", "ms"}, {"s", "s"}, {"min", "m"}, {"h", "h"}} {
			if num, ok := strings.CutSuffix(strings.ToLower(v), u.suffix); ok {
				if d, err := time.ParseDuration(strings.TrimSpace(num) + u.goUnit); err == nil && d >= 0 {
					return v, nil
				}
			}
		}
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q", name, v)
	}
}

// timeZoneSetting reads SET TIME ZONE / SET TimeZone as PostgreSQL 15
// does (pgdatetime.ParseZoneSetting; the INTERVAL form here) and returns
// the value as SHOW answers it. A zone DuckDB cannot be told (duckZone)
// is refused, 22023 with a hint.
func timeZoneSetting(v string) (string, error) {
	zs, err := zoneSetting(v)
	if err != nil {
		return "", err
	}
	if _, _, ok := duckZone(zs); !ok {
		return "", vsqlerr.New(vsqlerr.InvalidTimeZone, "time zone %q has a daylight-saving rule of its own, which vsql cannot give DuckDB", zs.Show).
			WithHint("Use a zone of the tz database with the same rules (such as 'America/Denver' for 'MST7MDT'), or a fixed offset ('-07', 'UTC+7').")
	}
	return zs.Show, nil
}

// zoneOffsetText writes seconds east as ±hh:mm[:ss].
func zoneOffsetText(east int) string {
	sign := "+"
	if east < 0 {
		sign, east = "-", -east
	}
	t := fmt.Sprintf("%s%02d:%02d", sign, east/3600, east/60%60)
	if east%60 != 0 {
		t += fmt.Sprintf(":%02d", east%60)
	}
	return t
}

// intervalZone reads the value of SET TIME ZONE INTERVAL '…' [HOUR [TO
// MINUTE]] (its quotes removed): an offset in hours EAST ('+05:30').
var intervalZone = regexp.MustCompile(`(?i)^INTERVAL\s+([+-]?)(\d{1,3})(?::(\d\d))?(?::(\d\d))?(\s+HOUR(?:\s+TO\s+(?:MINUTE|SECOND))?)?$`)

// zoneSetting resolves a TimeZone setting (see timeZoneSetting).
func zoneSetting(v string) (pgdatetime.ZoneSetting, error) {
	s := strings.TrimSpace(v)
	if strings.HasPrefix(strings.ToUpper(s), "INTERVAL") {
		m := intervalZone.FindStringSubmatch(s)
		if m == nil || (m[3] == "" && m[5] == "") {
			return pgdatetime.ZoneSetting{}, vsqlerr.New(vsqlerr.InvalidTimeZone, "invalid value for parameter \"TimeZone\": %q", v).
				WithHint("vsql reads an INTERVAL time zone written as hours and minutes: INTERVAL '+05:30' HOUR TO MINUTE.")
		}
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		sec, _ := strconv.Atoi(m[4])
		east := h*3600 + mi*60 + sec
		if m[1] == "-" {
			east = -east
		}
		if east >= 7*24*3600 || east <= -7*24*3600 {
			return pgdatetime.ZoneSetting{}, vsqlerr.New(vsqlerr.InvalidTimeZone, "invalid value for parameter \"TimeZone\": %q: UTC timezone offset is out of range.", v)
		}
		return pgdatetime.OffsetZone(east), nil
	}
	zs, err := pgdatetime.ParseZoneSetting(s)
	if err != nil {
		return zs, vsqlerr.New(vsqlerr.InvalidTimeZone, "%s", err.Error()).
			WithHint("Use a zone name ('Europe/Berlin', 'UTC'), a number of hours east of UTC (SET TIME ZONE 5.5) or a POSIX offset ('-05:30' is five and a half hours east, as in PostgreSQL).")
	}
	return zs, nil
}

// duckZone is what DuckDB's TimeZone is set to for a session zone: a
// name of the tz database, or the Etc/GMT zone of a fixed offset of whole
// hours. DuckDB's ICU takes nothing else (no custom offsets like
// 'GMT+04:30'): for another fixed offset DuckDB's zone is UTC. For a zone
// not of the tz database viaVariable is true: the session's zone reaches
// vsql's Go functions (to_char, OVERLAPS) through the DuckDB variable
// vsql_timezone. ok is false for a POSIX rule of its own, which DuckDB
// cannot follow.
func duckZone(zs pgdatetime.ZoneSetting) (name string, viaVariable, ok bool) {
	switch {
	case zs.IANA:
		return zs.Show, false, true
	case zs.Fixed && zs.East == 0:
		return "UTC", true, true
	case zs.Fixed && zs.East%3600 == 0 && zs.East >= -12*3600 && zs.East <= 14*3600:
		// POSIX's sign: Etc/GMT-5 is UTC+5; the variable keeps the zone's
		// abbreviation ('-04:30' has none) for to_char's TZ
		return fmt.Sprintf("Etc/GMT%+d", -zs.East/3600), true, true
	case zs.Fixed:
		return "UTC", true, true
	}
	return "", false, false
}

var settings = map[string]setting{
	"application_name": {def: "", normalize: anyValue, report: true},
	"client_encoding": {def: "UTF8", normalize: func(v string) (string, error) {
		return oneOf("client_encoding", "UTF8")(strings.NewReplacer("-", "", "unicode", "UTF8").Replace(strings.ToLower(v)))
	}, report: true},
	"datestyle":                           {def: "ISO, MDY", normalize: dateStyle, report: true},
	"timezone":                            {def: "UTC", normalize: timeZoneSetting, report: true},
	"intervalstyle":                       {def: "postgres", normalize: oneOf("IntervalStyle", "postgres", "postgres_verbose", "sql_standard", "iso_8601"), report: true},
	"extra_float_digits":                  {def: "1", normalize: intRange("extra_float_digits", -15, 3)},
	"client_min_messages":                 {def: "notice", normalize: oneOf("client_min_messages", "debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error")},
	"standard_conforming_strings":         {def: "on", normalize: oneOf("standard_conforming_strings", "on"), report: true},
	"bytea_output":                        {def: "hex", normalize: oneOf("bytea_output", "hex", "escape")},
	"statement_timeout":                   {def: "0", normalize: durationSetting("statement_timeout")},
	"lock_timeout":                        {def: "0", normalize: durationSetting("lock_timeout")},
	"idle_in_transaction_session_timeout": {def: "0", normalize: durationSetting("idle_in_transaction_session_timeout")},
	"default_transaction_isolation":       {def: "read committed", normalize: isolation},
	"transaction_isolation":               {def: "read committed", normalize: isolation},
	"default_transaction_read_only":       {def: "off", normalize: boolSetting("default_transaction_read_only")},
	"transaction_read_only":               {def: "off", normalize: boolSetting("transaction_read_only")},
	"default_transaction_deferrable":      {def: "off", normalize: boolSetting("default_transaction_deferrable")},
	"transaction_deferrable":              {def: "off", normalize: boolSetting("transaction_deferrable")},
	"search_path":                         {def: `"$user", public`, normalize: anyValue},
	"server_version":                      {def: ServerVersion, readOnly: true},
	"server_version_num":                  {def: "150000", readOnly: true},
	"server_encoding":                     {def: "UTF8", readOnly: true},
	"integer_datetimes":                   {def: "on", readOnly: true},
	"max_identifier_length":               {def: "63", readOnly: true},
	"is_superuser":                        {def: "on", readOnly: true},
	// the text search functions read the default configuration as this
	// constant (pgcompat's tsearch.go), so a session cannot change it
	"default_text_search_config": {def: "pg_catalog.english", readOnly: true},
}

// canonicalNames spell settings as PostgreSQL reports them.
var canonicalNames = map[string]string{"datestyle": "DateStyle", "timezone": "TimeZone", "intervalstyle": "IntervalStyle"}

func canonical(name string) string {
	if c, ok := canonicalNames[name]; ok {
		return c
	}
	return name
}

// dateStyle reads DateStyle as PostgreSQL's check_datestyle does: an
// output style (ISO, SQL, Postgres, German) and an input order (MDY, DMY,
// YMD; US and NonEuropean are MDY, European DMY). A part left out is
// written empty ("SQL, "): the session keeps its current one
// (mergeDateStyle). German alone also orders DMY; DEFAULT is ISO, MDY.
func dateStyle(v string) (string, error) {
	parts := strings.Split(strings.ToUpper(strings.ReplaceAll(v, " ", "")), ",")
	style, order, ordered := "", "", false
	for _, p := range parts {
		switch p {
		case "":
		case "DEFAULT":
			style, order, ordered = "ISO", "MDY", true
		case "ISO":
			style = "ISO"
		case "SQL":
			style = "SQL"
		case "POSTGRES":
			style = "Postgres"
		case "GERMAN":
			style = "German"
			if !ordered {
				order = "DMY"
			}
		case "MDY", "DMY", "YMD":
			ordered = true
			order = p
		case "US", "NONEURO", "NONEUROPEAN":
			order, ordered = "MDY", true
		case "EURO", "EUROPEAN":
			order, ordered = "DMY", true
		default:
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter \"DateStyle\": %q", v).WithHint("DateStyle is a style (ISO, SQL, Postgres, German) and an order (MDY, DMY, YMD): SET DateStyle = 'ISO, MDY'.")
		}
	}
	return style + ", " + order, nil
}

// mergeDateStyle fills the parts a DateStyle value left out (dateStyle)
// from the current one.
func mergeDateStyle(current, value string) string {
	curStyle, curOrder, _ := strings.Cut(current, ", ")
	style, order, _ := strings.Cut(value, ", ")
	if style == "" {
		style = curStyle
	}
	if order == "" {
		order = curOrder
	}
	return style + ", " + order
}

func isolation(v string) (string, error) {
	return oneOf("transaction_isolation", "read uncommitted", "read committed", "repeatable read", "serializable")(strings.Join(strings.Fields(v), " "))
}

var (
	setPattern   = regexp.MustCompile(`(?is)^\s*SET\s+(SESSION\s+|LOCAL\s+)?([a-z_][a-z0-9_.]*)\s*(?:=|\bTO\b)\s*(.*?)\s*$`)
	setSchema    = regexp.MustCompile(`(?is)^\s*SET\s+(SESSION\s+|LOCAL\s+)?SCHEMA\s+('(?:[^']|'')*')\s*$`)
	setTimeZone  = regexp.MustCompile(`(?is)^\s*SET\s+(SESSION\s+|LOCAL\s+)?TIME\s+ZONE\s+(.*?)\s*$`)
	resetPattern = regexp.MustCompile(`(?is)^\s*RESET\s+([a-z_][a-z0-9_.]*|TIME\s+ZONE)\s*$`)
	showPattern  = regexp.MustCompile(`(?is)^\s*SHOW\s+([a-z_][a-z0-9_.]*(?:\s+ISOLATION\s+LEVEL|\s+ZONE)?)\s*$`)
	// The session's identity: RESET and the DEFAULT/NONE forms keep the
	// login (which it always is); switching to another role is refused.
	resetIdentity = regexp.MustCompile(`(?is)^\s*(?:RESET\s+(?:SESSION\s+AUTHORIZATION|ROLE)|SET\s+(?:SESSION\s+|LOCAL\s+)?(?:SESSION\s+AUTHORIZATION\s+DEFAULT|ROLE\s+NONE))\s*$`)
	setIdentity   = regexp.MustCompile(`(?is)^\s*SET\s+(?:SESSION\s+|LOCAL\s+)?(?:SESSION\s+AUTHORIZATION|ROLE)\s+(.+?)\s*$`)
	discardAll    = regexp.MustCompile(`(?is)^\s*DISCARD\s+ALL\s*$`)
	setConfig     = regexp.MustCompile(`(?is)^\s*SELECT\s+(?:pg_catalog\s*\.\s*)?set_config\s*\(\s*'((?:[^']|'')*)'\s*,\s*'((?:[^']|'')*)'\s*,\s*(true|false)\s*\)\s*$`)
)

// settingValue reads a SET value list ('a', "b", c), respecting quotes,
// and returns the items without quotes joined by ", ".
func settingValue(raw string) string {
	var parts []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote != 0 && c == quote && i+1 < len(raw) && raw[i+1] == quote:
			cur.WriteByte(c)
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote == 0 && c == ',':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, strings.TrimSpace(cur.String()))
	return strings.Join(parts, ", ")
}

// prepareSetting handles SET, RESET, SHOW and DISCARD ALL of the settings
// above. ok is false for statements about anything else (they go to DuckDB).
func (s *Session) prepareSetting(st sqltext.Statement) (pgwire.Statement, bool, error) {
	sql := st.SQL
	if stmt, ok, err := s.prepareIdentity(st); ok {
		return stmt, ok, err
	}
	switch st.Keyword(0) {
	case "SET":
		if m := setTimeZone.FindStringSubmatch(sql); m != nil {
			if v := strings.ToUpper(m[2]); v == "LOCAL" || v == "DEFAULT" { // unquoted: the server's default
				return s.setStatement("timezone", s.initialSetting("timezone"), isLocal(m[1]))
			}
			return s.setStatement("timezone", settingValue(m[2]), isLocal(m[1]))
		}
		if m := setSessionModes.FindStringSubmatch(sql); m != nil {
			return s.setTransactionStatement(m[1], true)
		}
		if m := setTransaction.FindStringSubmatch(sql); m != nil {
			return s.setTransactionStatement(m[1], false)
		}
		if m := setPattern.FindStringSubmatch(sql); m != nil {
			name := strings.ToLower(m[2])
			if _, ok := txSettingNames[name]; ok {
				return s.setTransactionValue(name, settingValue(m[3]))
			}
			if _, ok := settings[name]; ok {
				if strings.EqualFold(strings.TrimSpace(m[3]), "DEFAULT") {
					if settings[name].readOnly {
						return nil, true, readOnlySetting(name)
					}
					return s.setStatement(name, s.initialSetting(name), isLocal(m[1]))
				}
				if name == "search_path" { // names, quoted as written
					return s.setStatement(name, searchPathValue(m[3]), isLocal(m[1]))
				}
				return s.setStatement(name, settingValue(m[3]), isLocal(m[1]))
			}
		}
		if m := setSchema.FindStringSubmatch(sql); m != nil {
			return s.setStatement("search_path", searchPathValue(m[2]), isLocal(m[1]))
		}
	case "RESET":
		if m := resetPattern.FindStringSubmatch(sql); m != nil {
			name := strings.ToLower(m[1])
			if strings.Join(strings.Fields(name), " ") == "time zone" {
				name = "timezone" // RESET TIME ZONE
			}
			if name == "all" {
				return &settingStatement{apply: s.resetAll, tag: "RESET"}, true, nil
			}
			if _, ok := settings[name]; ok {
				return &settingStatement{apply: func() error { return s.resetSetting(name) }, tag: "RESET"}, true, nil
			}
		}
	case "SHOW":
		if m := showPattern.FindStringSubmatch(sql); m != nil {
			name := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
			switch name {
			case "transaction isolation level":
				name = "transaction_isolation"
			case "time zone":
				name = "timezone"
			}
			if _, ok := settings[name]; ok {
				return &showStatement{name: canonical(name), value: func() string { return s.transactionSetting(name) }}, true, nil
			}
		}
	case "SELECT":
		if m := setConfig.FindStringSubmatch(sql); m != nil {
			return s.setConfigStatement(strings.ToLower(strings.ReplaceAll(m[1], "''", "'")), strings.ReplaceAll(m[2], "''", "'"))
		}
	case "DISCARD":
		if discardAll.MatchString(sql) {
			return &settingStatement{apply: func() error { s.closeCursors(false); s.prepared = nil; s.seqs.discard(); return s.resetAll() }, tag: "DISCARD ALL"}, true, nil
		}
	}
	return nil, false, nil
}

// prepareIdentity handles SET/RESET SESSION AUTHORIZATION and SET/RESET
// ROLE: a vsql session is its login's user for its whole life (privileges
// are the login's grants), so going back to it changes nothing and
// becoming another user is refused.
func (s *Session) prepareIdentity(st sqltext.Statement) (pgwire.Statement, bool, error) {
	if k := st.Keyword(0); k != "SET" && k != "RESET" {
		return nil, false, nil
	}
	if resetIdentity.MatchString(st.SQL) {
		tag := "SET"
		if st.Keyword(0) == "RESET" {
			tag = "RESET"
		}
		return &settingStatement{apply: func() error { return nil }, tag: tag}, true, nil
	}
	if m := setIdentity.FindStringSubmatch(st.SQL); m != nil {
		return nil, true, vsqlerr.New(vsqlerr.PermissionDenied, "cannot set the session's role to %s: a vsql session keeps its login's user", m[1]).
			WithHint("Connect as that user instead; its grants (vsql_grant) decide what it may do.")
	}
	return nil, false, nil
}

func isLocal(scope string) bool { return strings.EqualFold(strings.TrimSpace(scope), "LOCAL") }

func readOnlySetting(name string) error {
	return &vsqlerr.Error{SQLState: "55P02", Severity: "ERROR", Message: "parameter \"" + name + "\" cannot be changed"}
}

// setStatement is SET name = value; SET LOCAL lasts until the end of the
// transaction (outside one it warns and changes nothing, as PostgreSQL).
func (s *Session) setStatement(name, value string, local bool) (pgwire.Statement, bool, error) {
	def := settings[name]
	if def.readOnly {
		return nil, true, readOnlySetting(name)
	}
	v, err := def.normalize(value)
	if err != nil {
		return nil, true, err
	}
	return &settingStatement{apply: func() error {
		if local && s.txStatus() == txIdle {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "25P01",
				Message: "SET LOCAL can only be used in transaction blocks"})
			return nil
		}
		s.saveForTransaction(name, local)
		return s.applySetting(name, v)
	}}, true, nil
}

// txSetting is a setting's value before the transaction block changed it.
type txSetting struct {
	value string
	local bool // changed by SET LOCAL: restored at COMMIT too
}

// saveForTransaction records a setting's value before its first change
// in a transaction block: ROLLBACK restores what the block changed, COMMIT
// what it changed with SET LOCAL, as PostgreSQL (savepoints aside).
func (s *Session) saveForTransaction(name string, local bool) {
	if s.txStatus() == txIdle {
		return
	}
	if s.txSettings == nil {
		s.txSettings = map[string]txSetting{}
	}
	saved, ok := s.txSettings[name]
	if !ok {
		saved.value = s.settingValue(name)
	}
	saved.local = saved.local || local
	s.txSettings[name] = saved
}

// endTransactionSettings restores settings at the end of a transaction
// block (committed: only those set with SET LOCAL).
func (s *Session) endTransactionSettings(committed bool) {
	names := make([]string, 0, len(s.txSettings))
	for n := range s.txSettings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if saved := s.txSettings[n]; !committed || saved.local {
			_ = s.applySetting(n, saved.value)
		}
	}
	s.txSettings = nil
}

func (s *Session) settingValue(name string) string {
	if v, ok := s.settings[name]; ok {
		return v
	}
	return settings[name].def
}

func (s *Session) applySetting(name, value string) error {
	if name == "timezone" {
		zs, err := zoneSetting(value)
		if err != nil {
			return err
		}
		duck, viaVariable, ok := duckZone(zs)
		if !ok {
			return vsqlerr.New(vsqlerr.InvalidTimeZone, "invalid time zone %q", value)
		}
		if _, err := s.conn.ExecContext(context.Background(), "SET TimeZone = "+sqltext.QuoteString(duck), nil); err != nil {
			if !zs.Fixed {
				return err
			}
			viaVariable, duck = true, "UTC" // a fixed zone of the tz database ICU lacks
			if _, err := s.conn.ExecContext(context.Background(), "SET TimeZone = 'UTC'", nil); err != nil {
				return err
			}
		}
		if duck == "UTC" && zs.East != 0 {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000",
				Message: fmt.Sprintf("DuckDB has no time zone of offset %s: what DuckDB computes in the session's zone (a cast of a timestamptz to date, timestamp or time; extract, date_part and date_trunc of a timestamptz) is computed in UTC", zoneOffsetText(zs.East)),
				Hint:    "Timestamptz output and input, to_char and AT TIME ZONE follow the zone. A zone of the tz database (such as 'Asia/Kolkata') or a whole-hour offset is followed everywhere."})
		}
		variable := "RESET VARIABLE vsql_timezone"
		if viaVariable {
			variable = "SET VARIABLE vsql_timezone = " + sqltext.QuoteString(zs.Show)
		}
		if _, err := s.conn.ExecContext(context.Background(), variable, nil); err != nil {
			return err
		}
		s.location = zs.Location
		if zs.IANA && zs.Show == "UTC" {
			s.location = time.UTC
		}
		value = zs.Show
		pgcompat.SessionZone(s.zone, value) // the casts from text count sessions off UTC
		s.zone = value
	}
	if name == "search_path" {
		value = searchPathValue(value)
		s.searchPathChanged()
	}
	if name == "datestyle" {
		value = mergeDateStyle(s.settingValue("datestyle"), value)
		order := pgcompat.DateOrder(value)
		pgcompat.SessionDateOrder(s.dateOrder, order) // the casts from text count sessions off MDY
		s.dateOrder = order
	}
	if s.settings == nil {
		s.settings = map[string]string{}
	}
	old := s.settingValue(name)
	s.settings[name] = value
	s.settingsStale = true
	if settings[name].report && old != value {
		s.reports = append(s.reports, [2]string{canonical(name), value})
	}
	return nil
}

func (s *Session) resetSetting(name string) error {
	if settings[name].readOnly {
		return nil
	}
	s.saveForTransaction(name, false)
	return s.applySetting(name, s.initialSetting(name))
}

func (s *Session) resetAll() error {
	names := make([]string, 0, len(settings))
	for n := range settings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := s.resetSetting(n); err != nil {
			return err
		}
	}
	return nil
}

// initialSetting is a setting's value at session start: what the client
// sent in its startup packet (if valid), else the default.
func (s *Session) initialSetting(name string) string {
	v := s.startupSetting(name)
	if name == "datestyle" {
		v = mergeDateStyle(settings[name].def, v) // a part left out is the default's
	}
	return v
}

// startupSetting is initialSetting as the client sent it.
func (s *Session) startupSetting(name string) string {
	// options: "-c name=value" and "--name=value" (libpq's PGOPTIONS; dbt
	// sets search_path this way) win over plain startup parameters.
	if v, ok := startupOptions(s.params["options"])[name]; ok {
		if n, err := settings[name].normalize(v); err == nil {
			return n
		}
	}
	for k, v := range s.params {
		if strings.EqualFold(k, name) {
			if n, err := settings[name].normalize(v); err == nil {
				return n
			}
		}
	}
	return settings[name].def
}

// TakeParameterStatus implements pgwire.ParameterReporter.
func (s *Session) TakeParameterStatus() [][2]string {
	r := s.reports
	s.reports = nil
	return r
}

// statementTimeout is the session's statement_timeout (0 = none).
func (s *Session) statementTimeout() time.Duration {
	return parseSettingDuration(s.settingValue("statement_timeout"))
}

// parseSettingDuration reads a stored duration setting: plain numbers are
// milliseconds; ms, s, min and h are units.
func parseSettingDuration(v string) time.Duration {
	v = strings.ToLower(strings.TrimSpace(v))
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(n) * time.Millisecond
	}
	for _, u := range []struct {
		suffix string
		unit   time.Duration
	}{{"ms", time.Millisecond}, {"min", time.Minute}, {"s", time.Second}, {"h", time.Hour}} {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(num), 64); err == nil {
				return time.Duration(f * float64(u.unit))
			}
		}
	}
	return 0
}

// setConfigStatement is SELECT set_config('name', 'value', is_local): SET
// that returns the new value (is_local is treated as false).
func (s *Session) setConfigStatement(name, value string) (pgwire.Statement, bool, error) {
	def, ok := settings[name]
	if !ok {
		return nil, true, vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized configuration parameter %q", name).
			WithHint("vsql keeps the settings listed in docs/sql.md (Session settings).")
	}
	if def.readOnly {
		return nil, true, &vsqlerr.Error{SQLState: "55P02", Severity: "ERROR", Message: "parameter \"" + name + "\" cannot be changed"}
	}
	v, err := def.normalize(value)
	if err != nil {
		return nil, true, err
	}
	return &showStatement{name: "set_config", value: func() string { return s.settingValue(name) },
		apply: func() error { return s.applySetting(name, v) }, tag: "SELECT 1"}, true, nil
}

// publishLogin sets the DuckDB variables that vsql's catalogs read for
// the session's login (current_user, pg_roles, has_*_privilege), before
// the first statement that reaches those catalogs: a statement that
// names nothing there never pays for them, and a new session runs one
// statement (USE) instead of three.
func (s *Session) publishLogin(ctx context.Context, query string) error {
	if s.loginPublished || !strings.Contains(query, sqltext.PGCatalogSchema) {
		return nil
	}
	q := "SET VARIABLE " + pgcatalog.UserVariable + " = " + sqltext.QuoteString(s.principal.user) + ";\n" +
		"SET VARIABLE " + pgcatalog.RoleVariable + " = " + sqltext.QuoteString(string(s.principal.role)) + ";\n" +
		"SET VARIABLE " + pgcatalog.SessionVariable + " = " + sqltext.QuoteString(s.activity.token)
	if err := s.exec(ctx, q); err != nil {
		return err
	}
	s.loginPublished = true
	return nil
}

// publishSettings copies the session's changed settings into the DuckDB
// variable that current_setting() reads, when a statement calls it and
// they changed since the last copy.
func (s *Session) publishSettings(ctx context.Context, query string) error {
	if q := strings.ToLower(query); !s.settingsStale || !strings.Contains(q, "current_setting") && !strings.Contains(q, "pg_settings") {
		return nil
	}
	names := make([]string, 0, len(s.settings))
	for n := range s.settings {
		names = append(names, n)
	}
	sort.Strings(names)
	var items []string
	for _, n := range names {
		items = append(items, sqltext.QuoteString(n)+": "+sqltext.QuoteString(s.settings[n]))
	}
	q := "SET VARIABLE " + pgcatalog.SettingsVariable + " = MAP {" + strings.Join(items, ", ") + "}::MAP(VARCHAR, VARCHAR)"
	if err := s.exec(ctx, q); err != nil {
		return err
	}
	s.settingsStale = false
	return nil
}

// startupOptions reads the options startup parameter: -c name=value and
// --name=value pairs separated by spaces (a backslash escapes a space).
func startupOptions(opts string) map[string]string {
	out := map[string]string{}
	var words []string
	var cur strings.Builder
	for i := 0; i < len(opts); i++ {
		switch c := opts[i]; {
		case c == '\\' && i+1 < len(opts):
			i++
			cur.WriteByte(opts[i])
		case c == ' ' || c == '\t':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" && i+1 < len(words):
			i++
			w = words[i]
		case strings.HasPrefix(w, "-c"):
			w = w[2:]
		case strings.HasPrefix(w, "--"):
			w = w[2:]
		default:
			continue
		}
		if name, value, ok := strings.Cut(w, "="); ok {
			out[strings.ToLower(strings.ReplaceAll(name, "-", "_"))] = value
		}
	}
	return out
}
