package server

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// What clients may reach (see doc.go, "What clients may reach"): DuckDB's
// own configuration, fixed at Open before anything is attached, is the hard
// boundary; the classification below, run on every statement before vsql
// or DuckDB prepares it, refuses what DuckDB's configuration cannot tell
// apart (the admin role from the others, vsql's own files inside the
// directories DuckDB must open, process-wide from per-session settings).

// repositoryDirs are the repository directories DuckDB itself opens files
// in: branch files (live/), snapshot images and remote heads (cache/),
// merges, restores and settles (staging/), frozen merge decisions
// (requests/). Nothing else of the repository (catalog.db, blocks/, the
// users file, remotes.json) is ever opened by DuckDB.
var repositoryDirs = []string{"live", "cache", "staging", "requests"}

// adminSettings are the DuckDB settings that may change while vsqld runs
// (DuckDB's allowed_configs; every other one is locked): TimeZone and
// Calendar, which vsql sets per session and per merge, and the tuning
// knobs an admin may turn. Names DuckDB does not know are left out.
var adminSettings = []string{
	"TimeZone", "Calendar", "memory_limit", "preserve_insertion_order", "checkpoint_threshold",
	"default_order", "default_null_order", "errors_as_json", "explain_output",
	"enable_progress_bar", "progress_bar_time", "ordered_aggregate_threshold", "integer_division",
	"max_expression_depth", "enable_object_cache", "streaming_buffer_size", "immediate_transaction_mode",
	"scalar_subquery_error_on_multiple_rows", "late_materialization_max_rows",
}

// protectedSettings undo the protection, or point DuckDB at files: refused
// to everyone, admins included (DuckDB's lock refuses them too; this gives
// the reason). Names containing one of protectedSettingParts are as well.
var protectedSettings = map[string]bool{
	"enable_external_access": true, "allowed_directories": true, "allowed_paths": true, "lock_configuration": true,
	"allowed_configs": true, "temp_directory": true, "secret_directory": true, "disabled_filesystems": true,
	"home_directory": true, "file_search_path": true, "log_query_path": true, "profile_output": true,
	"profiling_output": true, "http_logging_output": true, "enable_logging": true, "logging_storage": true,
	"access_mode": true, "default_secret_storage": true,
}

var protectedSettingParts = []string{"extension", "secret", "directory", "directories", "external_access"}

// userTableFunctions are the built-in table functions non-admin sessions
// may call: they compute, and read nothing but their arguments. vsql_*
// functions check their own privileges. Every other table function of
// DuckDB, present or future, is refused to them.
var userTableFunctions = map[string]bool{
	"range": true, "generate_series": true, "unnest": true, "repeat": true, "repeat_row": true,
	"json_each": true, "json_tree": true, "pg_timezone_names": true, "icu_calendar_names": true,
	"duckdb_keywords": true,
}

// userPragmas are the PRAGMAs non-admin sessions may run: they describe
// the session's own tables or the engine's version.
var userPragmas = map[string]bool{
	"table_info": true, "show": true, "show_tables": true, "show_tables_expanded": true, "version": true,
	"platform": true, "collations": true, "storage_info": true,
}

// userStatements are the statement kinds (first keyword) non-admin
// sessions may run; what they reach is checked further.
var userStatements = map[string]bool{
	"SELECT": true, "VALUES": true, "WITH": true, "TABLE": true, "FROM": true, "SHOW": true, "DESCRIBE": true,
	"SUMMARIZE": true, "EXPLAIN": true, "INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true,
	"CREATE": true, "DROP": true, "ALTER": true, "TRUNCATE": true, "COMMENT": true, "BEGIN": true, "START": true,
	"COMMIT": true, "END": true, "ROLLBACK": true, "ABORT": true, "SAVEPOINT": true, "RELEASE": true,
	"PREPARE": true, "EXECUTE": true, "DEALLOCATE": true, "SET": true, "RESET": true, "COPY": true,
	"DISCARD": true, "ANALYZE": true, "VACUUM": true, "CALL": true, "PRAGMA": true, "PIVOT": true, "UNPIVOT": true,
	// vsql's cursors (cursor.go); DECLARE's query is judged as any query.
	"DECLARE": true, "FETCH": true, "MOVE": true, "CLOSE": true,
}

// readStatements cannot write (vsql's internal schemas included).
var readStatements = map[string]bool{
	"SELECT": true, "VALUES": true, "TABLE": true, "FROM": true, "SHOW": true, "DESCRIBE": true, "SUMMARIZE": true,
}

// guard is what the classification needs, computed at Open.
type guard struct {
	// roots are the repository directory, as configured and with symlinks
	// resolved; files are protected files outside it (users file, TLS key).
	roots, files []string
	cwd          string
	cwdInRoot    bool // relative names may point into the repository
	home         string
	// denyCall: DuckDB's table functions and table macros outside
	// userTableFunctions that are not also scalar or aggregate functions:
	// refused to non-admins wherever they are called. denyTable adds
	// those that are (histogram), pragma functions and DuckDB's internal
	// views: refused at a table position.
	denyCall, denyTable map[string]bool
	allowExtensions     bool
}

// engineOptions are the DuckDB options of the DSN (fixed when the
// instance starts).
func (s *Server) engineOptions(q url.Values) {
	ext := "false"
	if s.cfg.AllowExtensions {
		ext = "true"
	}
	q.Set("autoinstall_known_extensions", ext)
	q.Set("autoload_known_extensions", ext)
	q.Set("allow_community_extensions", ext)
	q.Set("allow_persistent_secrets", "false") // no secrets read from or written to ~/.duckdb
	q.Set("temp_directory", filepath.Join(s.guard.roots[0], "tmp"))
}

// openGuard prepares the repository paths the classification protects and
// checks --file-access; it runs before the engine starts.
func (s *Server) openGuard() error {
	g := &s.guard
	g.allowExtensions = s.cfg.AllowExtensions
	repo, err := filepath.Abs(s.cfg.DataDir)
	if err != nil {
		return err
	}
	g.roots = []string{repo}
	if r, err := filepath.EvalSymlinks(repo); err == nil && r != repo {
		g.roots = append(g.roots, r)
	}
	for _, f := range []string{s.cfg.UsersFile, s.cfg.TLSKey} {
		if f == "" {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		g.files = append(g.files, abs)
		if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
			g.files = append(g.files, r)
		}
	}
	if g.cwd, err = os.Getwd(); err != nil {
		return err
	}
	for _, r := range g.roots {
		if within(g.cwd, r) {
			g.cwdInRoot = true
		}
	}
	g.home, _ = os.UserHomeDir()
	for i, d := range s.cfg.FileAccess {
		abs, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return fmt.Errorf("--file-access %s: not a directory", d)
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		for _, p := range append(append([]string{}, g.roots...), g.files...) {
			if within(abs, p) || within(p, abs) {
				return fmt.Errorf("--file-access %s: overlaps the repository or its users file or TLS key (%s); name a directory outside them", d, p)
			}
		}
		s.cfg.FileAccess[i] = abs
	}
	tmp := filepath.Join(repo, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return fmt.Errorf("create repository directory: %w", err)
	}
	return clearDir(tmp) // DuckDB's spill files of a previous run
}

// lockEngine fixes DuckDB's file access and settings; it runs on the first
// connection, before anything is attached. DuckDB refuses to turn external
// access back on, to change allowed_directories once it is off, and to
// change any setting but allowed_configs once the configuration is locked.
func (s *Server) lockEngine(ctx context.Context) error {
	dirs := []string{}
	for _, d := range repositoryDirs {
		dirs = append(dirs, filepath.Join(s.guard.roots[0], d)+string(filepath.Separator))
	}
	for _, d := range s.cfg.FileAccess {
		dirs = append(dirs, d+string(filepath.Separator))
	}
	quoted := make([]string, len(dirs))
	for i, d := range dirs {
		quoted[i] = sqltext.QuoteString(d)
	}
	known := map[string]bool{}
	if err := s.engineExec().Query(ctx, "SELECT lower(name) FROM duckdb_settings()", func(row []any) error {
		name, _ := row[0].(string)
		known[name] = true
		return nil
	}); err != nil {
		return err
	}
	var allowed []string
	for _, name := range adminSettings {
		if known[strings.ToLower(name)] {
			allowed = append(allowed, sqltext.QuoteString(name))
		}
	}
	// TimeZone UTC for every connection (a session's SET TimeZone changes
	// its own): set once here rather than by each new session.
	// NULLs sort as in PostgreSQL: last in ascending order, first in
	// descending order (DuckDB's default puts them last in both).
	stmts := []string{"SET GLOBAL TimeZone = 'UTC'", "SET GLOBAL default_null_order = 'nulls_last_on_asc_first_on_desc'",
		"SET GLOBAL allowed_directories = [" + strings.Join(quoted, ", ") + "]"}
	if s.cfg.AllowExtensions {
		// DuckDB loads no extension while external access is off
		// (measured: "Loading external extensions is disabled through
		// configuration"), so --allow-extensions leaves it on.
		s.log.Warn("--allow-extensions: DuckDB's external access stays on; the statement classification alone keeps non-admin sessions away from server files")
	} else {
		stmts = append(stmts, "SET GLOBAL enable_external_access = false")
	}
	stmts = append(stmts, "SET GLOBAL allowed_configs = ["+strings.Join(allowed, ", ")+"]", "SET GLOBAL lock_configuration = true")
	for _, q := range stmts {
		if _, err := s.engine.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("configure DuckDB (%s): %w", q, err)
		}
	}
	s.log.Info("DuckDB file access", "external_access", s.cfg.AllowExtensions, "allowed_directories", dirs, "extensions", s.cfg.AllowExtensions)
	return nil
}

// loadFunctionGuard computes the table functions refused to non-admins from
// DuckDB's catalog, once every function (vsql's included) is registered:
// deny by default, so table functions this code never heard of are refused.
func (s *Server) loadFunctionGuard(ctx context.Context) error {
	g := &s.guard
	table, other, pragma := map[string]bool{}, map[string]bool{}, map[string]bool{}
	err := s.engineExec().Query(ctx, "SELECT DISTINCT lower(function_name), function_type, database_name FROM duckdb_functions()", func(row []any) error {
		name, _ := row[0].(string)
		typ, _ := row[1].(string)
		db, _ := row[2].(string)
		switch {
		case strings.HasPrefix(name, "vsql_") || strings.HasPrefix(name, "__vsql"):
		case (typ == "table" || typ == "table_macro") && db == "system":
			table[name] = true
		case typ == "pragma":
			pragma[name] = true
		case typ == "scalar" || typ == "aggregate" || typ == "macro":
			other[name] = true
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list DuckDB's functions: %w", err)
	}
	views := map[string]bool{}
	err = s.engineExec().Query(ctx, "SELECT lower(view_name) FROM duckdb_views() WHERE internal AND database_name = 'system' AND schema_name = 'main'", func(row []any) error {
		name, _ := row[0].(string)
		views[name] = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("list DuckDB's views: %w", err)
	}
	g.denyCall, g.denyTable = map[string]bool{}, map[string]bool{}
	for name := range table {
		if userTableFunctions[name] {
			continue
		}
		g.denyTable[name] = true
		if !other[name] {
			g.denyCall[name] = true
		}
	}
	for _, set := range []map[string]bool{pragma, views} {
		for name := range set {
			if !userTableFunctions[name] {
				g.denyTable[name] = true
			}
		}
	}
	return nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}

// protectedPath reports whether a literal names a path inside the
// repository, or one of its protected files, or a glob that could match
// them, or holds the repository's absolute path anywhere (SQL text for
// query(…)). Relative names are resolved as DuckDB resolves them (against the
// process's working directory); when that is inside the repository, a
// relative name counts only if it (or, with a '/', its directory) exists,
// so that ordinary strings are not paths.
func (g *guard) protectedPath(lit string) bool {
	v := lit
	if v == "" || len(v) > 4096 || strings.ContainsAny(v, "\n\x00") {
		return false
	}
	// The repository's path anywhere in a literal: SQL text handed to
	// query(…), JSON, a path with a prefix vsql does not parse.
	for _, root := range g.roots {
		if i := strings.Index(v, root); i >= 0 {
			if rest := v[i+len(root):]; rest == "" || rest[0] == filepath.Separator || rest[0] == '\'' || rest[0] == '"' {
				return true
			}
		}
	}
	for _, f := range g.files {
		if strings.Contains(v, f) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(v, "file://"); ok {
		v = rest
	} else if rest, ok := strings.CutPrefix(v, "file:"); ok {
		v = rest
	}
	if strings.Contains(v, "://") {
		return false // a URL: not a local file
	}
	slash := strings.ContainsRune(v, '/') || strings.ContainsRune(v, filepath.Separator)
	if v == "~" || strings.HasPrefix(v, "~/") {
		if g.home == "" {
			return false
		}
		v = g.home + v[1:]
		slash = true
	}
	if !slash && !g.cwdInRoot {
		return false
	}
	// DuckDB's glob characters are * ? and [ (not {: '{"a":"x/y"}' is a
	// file name to DuckDB, and JSON to everyone else).
	glob, pattern, whole := false, "", v
	if slash {
		if i := strings.IndexAny(v, "*?["); i >= 0 {
			glob = true
			if j := strings.LastIndexAny(v[:i], "/"+string(filepath.Separator)); j >= 0 {
				v, pattern = v[:j+1], v[j+1:]
			} else {
				v, pattern = ".", v
			}
		}
	}
	relative := !filepath.IsAbs(v)
	p := filepath.Clean(v)
	if relative {
		p = filepath.Join(g.cwd, v)
	}
	if glob && !g.cwdInRoot {
		// The same text read as a plain name (ATTACH and COPY do not glob).
		lp := filepath.Clean(whole)
		if !filepath.IsAbs(whole) {
			lp = filepath.Join(g.cwd, whole)
		}
		for _, f := range g.files {
			if lp == f {
				return true
			}
		}
		for _, root := range g.roots {
			if within(lp, root) {
				return true
			}
		}
	}
	for _, f := range g.files {
		if p == f || (glob && within(f, p) && globReaches(pattern, p, f)) {
			return true
		}
	}
	for _, root := range g.roots {
		if glob && within(root, p) && globReaches(pattern, p, root) {
			return true // the glob's directory holds the repository
		}
		if !within(p, root) {
			continue
		}
		if !relative || glob || !g.cwdInRoot {
			return true
		}
		if _, err := os.Lstat(p); err == nil {
			return true
		}
		if slash {
			if _, err := os.Lstat(filepath.Dir(p)); err == nil && filepath.Dir(p) != root {
				return true
			}
		}
	}
	return false
}

// globReaches reports whether the glob pattern, relative to directory
// dir, may match target (inside dir) or a path on the way to it: its
// segments are matched against target's components one by one, as
// DuckDB's glob walks directories. A segment that cannot match its
// component (JSON such as '["a/b"]' read as a glob: the segment '["a' has
// no closing ']', so DuckDB's glob matches nothing) means no; **, a
// backslash or a pattern Go cannot read means maybe, which counts as yes.
func globReaches(pattern, dir, target string) bool {
	rel, err := filepath.Rel(dir, target)
	if err != nil {
		return true
	}
	comps := strings.Split(filepath.ToSlash(rel), "/")
	segs := strings.FieldsFunc(pattern, func(r rune) bool { return r == '/' || r == filepath.Separator })
	for k, comp := range comps {
		if k >= len(segs) {
			return true // the pattern names a directory on the way
		}
		seg := segs[k]
		if strings.Contains(seg, "**") || strings.ContainsRune(seg, '\\') {
			return true
		}
		if open := strings.IndexByte(seg, '['); open >= 0 && !strings.Contains(seg[open:], "]") {
			return false // an unclosed [ matches nothing
		}
		seg = strings.ReplaceAll(seg, "[!", "[^") // DuckDB's negated class is Go's [^…]
		ok, err := filepath.Match(seg, comp)
		if err != nil {
			return true
		}
		if !ok {
			return false
		}
	}
	return true
}

// Refusals.

func repositoryRefused(lit string) error {
	return vsqlerr.New(vsqlerr.ServerFileAccess, "permission denied: %q is inside vsql's repository (or names its users file or TLS key); no session reaches those files through SQL", lit).
		WithHint("vsql's own files change only through vsql (vsql_* functions, vsqld commands). Admins read and write server files in --file-access directories; everyone can use COPY … FROM STDIN / TO STDOUT (psql \\copy).")
}

func (s *Session) fileRefused(what string) error {
	return vsqlerr.New(vsqlerr.ServerFileAccess, "permission denied: %s reaches server files, which are for the admin role (user %q has the %s role)", what, s.user, s.role).
		WithHint("Server files are for the admin role; load and unload data through the connection with COPY … FROM STDIN / TO STDOUT (psql \\copy).")
}

func (s *Session) adminOnly(what string) error {
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: %s is for the admin role (user %q has the %s role)", what, s.user, s.role).
		WithHint("Write and read users run queries, DML and DDL on their databases, COPY … FROM STDIN / TO STDOUT, and vsql's per-session PostgreSQL settings (docs/sql.md); ask an admin for the rest.")
}

func settingRefused(name string) error {
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: setting %q cannot be changed while vsqld runs: it keeps sessions away from server files and extensions", name).
		WithHint("vsqld fixes it at start: see --file-access and --allow-extensions (vsqld --help).")
}

func internalRefused() error {
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: vsql's internal schemas and objects (names starting with __vsql, and the PostgreSQL catalogs pg_catalog and information_schema it provides) cannot be changed through SQL").
		WithHint("They are rebuilt by vsqld; create your own objects in your database instead.")
}

// guard judges a statement before vsql or DuckDB prepares it (DuckDB's
// prepare already runs PRAGMAs' handlers and a multi-statement's leading
// statements, so nothing refused here may reach it).
func (s *Session) guard(st sqltext.Statement) error {
	g := &s.srv.guard
	kw := st.Keyword(0)
	admin := s.admin()
	if kw == "IMPORT" {
		return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: IMPORT DATABASE runs a script of statements past vsql's checks").
			WithHint("Create the tables and load them through the connection (COPY … FROM STDIN, psql \\copy).")
	}
	r := sqltext.ReachOf(st)
	for _, lit := range r.Literals {
		if g.protectedPath(lit) {
			return repositoryRefused(lit)
		}
	}
	if set, ok := sqltext.SettingOf(st); ok {
		if err := s.guardSetting(set); err != nil {
			return err
		}
	}
	for _, name := range r.Calls {
		if name == "import_database" {
			return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: import_database runs a script of statements past vsql's checks").
				WithHint("Create the tables and load them through the connection (COPY … FROM STDIN, psql \\copy).")
		}
	}
	if k := st.Kind(); !readStatements[kw] && k != sqltext.KindCreateDatabase && k != sqltext.KindDropDatabase {
		// (CREATE/DROP DATABASE are vsql's own and check their names.)
		if err := s.guardInternal(st); err != nil {
			return err
		}
	}
	if admin {
		switch kw {
		case "INSTALL", "LOAD", "FORCE":
			if !g.allowExtensions {
				return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: extensions are not installed or loaded unless vsqld runs with --allow-extensions").
					WithHint("Restart vsqld with --allow-extensions (VSQL_ALLOW_EXTENSIONS=true) to let admins INSTALL and LOAD extensions.")
			}
		case "UPDATE":
			if st.Keyword(1) == "EXTENSIONS" && !g.allowExtensions {
				return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: extensions are not installed or loaded unless vsqld runs with --allow-extensions").
					WithHint("Restart vsqld with --allow-extensions (VSQL_ALLOW_EXTENSIONS=true) to let admins INSTALL and LOAD extensions.")
			}
		}
		return nil
	}
	if err := s.guardKind(st, 0); err != nil {
		return err
	}
	for _, name := range r.Calls {
		if g.denyCall[name] {
			return s.tableFunctionRefused(name)
		}
	}
	for _, t := range r.Tables {
		switch t.Kind {
		case sqltext.RefString:
			return s.fileRefused(fmt.Sprintf("reading %s as a table (a replacement scan)", sqltext.QuoteString(t.Name)))
		case sqltext.RefQuoted:
			if t.Parts == 1 && strings.ContainsAny(t.Name, "/\\.") {
				return s.fileRefused(fmt.Sprintf("reading %s as a table (a replacement scan)", sqltext.QuoteIdent(t.Name)))
			}
			fallthrough
		case sqltext.RefName:
			if g.denyTable[strings.ToLower(t.Name)] {
				return s.tableFunctionRefused(strings.ToLower(t.Name))
			}
		}
	}
	for _, q := range r.Qualifiers {
		switch strings.ToLower(q) {
		case "memory", "system":
			return s.adminOnly(fmt.Sprintf("the engine's %s catalog", strings.ToLower(q)))
		}
	}
	return nil
}

func (s *Session) tableFunctionRefused(name string) error {
	names := make([]string, 0, len(userTableFunctions))
	for n := range userTableFunctions {
		names = append(names, n)
	}
	sort.Strings(names)
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: %s() is for the admin role (user %q has the %s role)", name, s.user, s.role).
		WithHint("Write and read users may call the table functions %s and vsql_*; server files are for the admin role (use COPY … FROM STDIN / psql \\copy).", strings.Join(names, ", "))
}

// guardKind is the statement allow-list of non-admin sessions; PREPARE
// and EXPLAIN are judged by the statement they carry.
func (s *Session) guardKind(st sqltext.Statement, depth int) error {
	kw := st.Keyword(0)
	if kw == "" {
		return nil
	}
	if !userStatements[kw] {
		switch kw {
		case "INSTALL", "LOAD", "FORCE":
			return s.adminOnly("installing and loading extensions")
		case "EXPORT":
			return s.fileRefused("EXPORT DATABASE")
		case "CHECKPOINT":
			return s.adminOnly("CHECKPOINT")
		case "ATTACH", "DETACH", "USE":
			return s.adminOnly(kw)
		}
		return s.adminOnly("the statement " + kw)
	}
	switch kw {
	case "PREPARE", "EXPLAIN":
		if inner, ok := sqltext.InnerStatement(st); ok && depth < 4 {
			return s.guardKind(inner, depth+1)
		}
	case "UPDATE":
		if st.Keyword(1) == "EXTENSIONS" {
			return s.adminOnly("updating extensions")
		}
	case "CREATE", "DROP":
		i := 1
	modifiers:
		for {
			switch st.Keyword(i) {
			case "OR", "REPLACE", "PERSISTENT", "TEMPORARY", "TEMP":
				i++
			case "SECRET":
				return s.adminOnly(kw + " SECRET")
			default:
				break modifiers
			}
		}
	case "COPY":
		cp, err := st.ParseCopy()
		if err != nil {
			return nil // a syntax error, reported as such by prepareCopy
		}
		if !cp.Stdio {
			return s.fileRefused("COPY to or from a server file")
		}
	case "PRAGMA":
		set, _ := sqltext.SettingOf(st)
		if !set.Assign && !userPragmas[set.Name] {
			return s.adminOnly("PRAGMA " + set.Name)
		}
	}
	return nil
}

// guardSetting refuses settings that undo the protection (everyone) and
// DuckDB's process-wide settings (non-admins). vsql's PostgreSQL settings
// are per session; DuckDB variables (SET VARIABLE) are too.
func (s *Session) guardSetting(set sqltext.Setting) error {
	if set.Verb == "PRAGMA" && !set.Assign {
		return nil // a pragma call, judged as one
	}
	name := set.Name
	if set.Variable || name == "" {
		return nil
	}
	if protectedSettings[name] {
		return settingRefused(name)
	}
	if name == "threads" || name == "external_threads" {
		// DuckDB's threads are all vsqld's (duckstream.Workers): a worker
		// of DuckDB's own would also wait on the semaphore the helpers
		// wait on, and could miss the wake-up that stops it.
		return vsqlerr.New(vsqlerr.CantChangeRuntimeParam, "parameter %q cannot be changed without restarting the server", name).
			WithHint("vsqld runs DuckDB's threads itself: start it with --threads n.")
	}
	for _, part := range protectedSettingParts {
		if strings.Contains(name, part) {
			return settingRefused(name)
		}
	}
	if s.admin() {
		return nil
	}
	if name == "vsql_merge_max_concurrent" {
		if set.Verb == "SET" || set.Verb == "RESET" {
			return s.adminOnly("SET vsql_merge_max_concurrent (it bounds merges for the whole server)")
		}
		return nil
	}
	if set.Scope == "GLOBAL" {
		return s.adminOnly("SET GLOBAL")
	}
	if set.Verb != "PRAGMA" {
		if _, ok := settings[name]; ok {
			return nil
		}
		switch name {
		case "all", "transaction", "characteristics", "session", "role":
			return nil // RESET ALL, SET TRANSACTION …, SET SESSION CHARACTERISTICS …, SET/RESET ROLE: vsql's own
		}
	}
	return s.adminOnly(fmt.Sprintf("changing DuckDB's setting %q (DuckDB's settings are the whole server's)", name))
}

// guardInternal refuses statements that would change vsql's internal
// schemas: any naming __vsql, and DDL whose target vsql's PostgreSQL
// rewrite would send there (DROP VIEW pg_catalog.pg_class).
func (s *Session) guardInternal(st sqltext.Statement) error {
	if strings.Contains(strings.ToLower(st.SQL), "__vsql") {
		return internalRefused()
	}
	switch st.Keyword(0) {
	case "CREATE", "DROP", "ALTER", "COMMENT", "TRUNCATE":
	default:
		return nil
	}
	rewritten, ok := sqltext.RewritePostgresIn(st)
	if !ok {
		return nil
	}
	if strings.Contains(strings.ToLower(sqltext.DDLHead(rewritten.SQL)), "__vsql") {
		return internalRefused()
	}
	return nil
}

// guardPrepared refuses to non-admins what DuckDB classified as reaching
// beyond their databases, should the lexical classification have missed
// it.
func (s *Session) guardPrepared(t duckdb.StmtType) error {
	if s.admin() {
		return nil
	}
	switch t {
	case duckdb.STATEMENT_TYPE_COPY, duckdb.STATEMENT_TYPE_EXPORT:
		return s.fileRefused("COPY or EXPORT of server files")
	case duckdb.STATEMENT_TYPE_LOAD, duckdb.STATEMENT_TYPE_EXTENSION, duckdb.STATEMENT_TYPE_ATTACH,
		duckdb.STATEMENT_TYPE_DETACH, duckdb.STATEMENT_TYPE_LOGICAL_PLAN:
		return s.adminOnly("this statement")
	}
	return nil
}
