package server

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL settings whose effect belongs to PostgreSQL's executor:
// the planner's switches and costs (enable_hashagg, parallel_setup_cost,
// …), its memory budgets (work_mem), its WAL (synchronous_commit) and a
// few more. Their effect cannot be seen in a query's answer on DuckDB,
// which plans and spills by its own rules, so vsql keeps them as session
// values: SET checks the value as PostgreSQL does, SHOW answers it in
// PostgreSQL's form and RESET restores the default. None of them reaches
// DuckDB (its settings are the whole server's).
func init() {
	for name, def := range map[string]string{
		"enable_async_append": "on", "enable_bitmapscan": "on", "enable_gathermerge": "on",
		"enable_hashagg": "on", "enable_hashjoin": "on", "enable_incremental_sort": "on",
		"enable_indexscan": "on", "enable_indexonlyscan": "on", "enable_material": "on",
		"enable_memoize": "on", "enable_mergejoin": "on", "enable_nestloop": "on",
		"enable_parallel_append": "on", "enable_parallel_hash": "on", "enable_partition_pruning": "on",
		"enable_partitionwise_join": "off", "enable_partitionwise_aggregate": "off",
		"enable_seqscan": "on", "enable_sort": "on", "enable_tidscan": "on",
		"geqo": "on", "jit": "on", "parallel_leader_participation": "on",
		// With standard_conforming_strings always on, backslashes in
		// ordinary strings are never escapes: nothing to warn about.
		"escape_string_warning": "on",
	} {
		settings[name] = setting{def: def, normalize: boolSetting(name)}
	}
	for name, def := range map[string]float64{
		"jit_above_cost": 100000, "jit_inline_above_cost": 500000, "jit_optimize_above_cost": 500000,
		"parallel_setup_cost": 1000, "parallel_tuple_cost": 0.1, "seq_page_cost": 1, "random_page_cost": 4,
		"cpu_tuple_cost": 0.01, "cpu_index_tuple_cost": 0.005, "cpu_operator_cost": 0.0025,
	} {
		lo := 0.0
		if strings.HasPrefix(name, "jit_") {
			lo = -1
		}
		settings[name] = setting{def: realText(def), normalize: realSetting(name, lo, 1.79769e+308)}
	}
	settings["hash_mem_multiplier"] = setting{def: "2", normalize: realSetting("hash_mem_multiplier", 1, 1000)}
	for name, def := range map[string]int{
		"max_parallel_workers_per_gather": 2, "max_parallel_workers": 8, "max_parallel_maintenance_workers": 2,
		"geqo_threshold": 12, "from_collapse_limit": 8, "join_collapse_limit": 8,
	} {
		lo := 0
		if name != "max_parallel_workers_per_gather" && name != "max_parallel_workers" && name != "max_parallel_maintenance_workers" {
			lo = 1
		}
		if name == "geqo_threshold" {
			lo = 2
		}
		hi := 2147483647
		if strings.HasPrefix(name, "max_parallel") {
			hi = 1024
		}
		settings[name] = setting{def: strconv.Itoa(def), normalize: intRange(name, lo, hi)}
	}
	// Memory, in kB (min_parallel_*_scan_size in blocks of 8 kB).
	settings["work_mem"] = setting{def: "4MB", normalize: memorySetting("work_mem", 1, 64, 2147483647)}
	settings["maintenance_work_mem"] = setting{def: "64MB", normalize: memorySetting("maintenance_work_mem", 1, 1024, 2147483647)}
	settings["max_stack_depth"] = setting{def: "2MB", normalize: memorySetting("max_stack_depth", 1, 100, 7680)}
	settings["min_parallel_table_scan_size"] = setting{def: "8MB", normalize: memorySetting("min_parallel_table_scan_size", 8, 0, 715827882)}
	settings["min_parallel_index_scan_size"] = setting{def: "512kB", normalize: memorySetting("min_parallel_index_scan_size", 8, 0, 715827882)}

	settings["synchronous_commit"] = setting{def: "on", normalize: enumSetting("synchronous_commit",
		"on", "off", "local", "remote_write", "remote_apply")}
	settings["force_parallel_mode"] = setting{def: "off", normalize: enumSetting("force_parallel_mode", "off", "on", "regress")}
	settings["default_toast_compression"] = setting{def: "pglz", normalize: enumSetting("default_toast_compression", "pglz", "lz4")}
	// Locale categories: vsql's strings, numbers and dates follow the C
	// locale, the only one it has.
	for _, name := range []string{"lc_numeric", "lc_monetary", "lc_time", "lc_messages"} {
		settings[name] = setting{def: "C", normalize: localeSetting(name)}
	}
}

// boolSetting reads PostgreSQL's Boolean forms: on, off, true, false,
// yes, no, 1, 0 and unique prefixes of them; SHOW answers on or off.
func boolSetting(name string) func(string) (string, error) {
	return func(v string) (string, error) {
		if b, ok := parseBool(v); ok {
			if b {
				return "on", nil
			}
			return "off", nil
		}
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "parameter %q requires a Boolean value", name).
			WithHint("Write on or off (true, false, yes, no, 1, 0).")
	}
}

// parseBool is PostgreSQL's parse_bool: a word matches when it is a
// prefix of true, false, yes or no, or is on, off (at least "of"), 1, 0.
func parseBool(v string) (bool, bool) {
	s := strings.ToLower(strings.TrimSpace(v))
	if s == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix("true", s), strings.HasPrefix("yes", s), s == "on", s == "1":
		return true, true
	case strings.HasPrefix("false", s), strings.HasPrefix("no", s), len(s) >= 2 && strings.HasPrefix("off", s), s == "0":
		return false, true
	}
	return false, false
}

// enumSetting accepts the allowed words; synchronous_commit also takes
// the Boolean forms PostgreSQL takes for it.
func enumSetting(name string, allowed ...string) func(string) (string, error) {
	one := oneOf(name, allowed...)
	return func(v string) (string, error) {
		if out, err := one(strings.TrimSpace(v)); err == nil {
			return out, nil
		}
		if b, ok := parseBool(v); ok && name == "synchronous_commit" {
			if b {
				return "on", nil
			}
			return "off", nil
		}
		return one(v)
	}
}

func localeSetting(name string) func(string) (string, error) {
	return func(v string) (string, error) {
		switch v = strings.TrimSpace(v); v {
		case "C", "POSIX":
			return v, nil
		}
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q", name, v).
			WithHint("vsql has the C locale only: C or POSIX.")
	}
}

// realText formats a real setting as PostgreSQL's SHOW does (%g).
func realText(f float64) string { return fmt.Sprintf("%.6g", f) }

func realSetting(name string, lo, hi float64) func(string) (string, error) {
	return func(v string) (string, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "parameter %q requires a numeric value", name)
		}
		if f < lo || f > hi {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "%s is outside the valid range for parameter %q (%s .. %s)",
				realText(f), name, realText(lo), realText(hi))
		}
		return realText(f), nil
	}
}

// memoryUnits are PostgreSQL's units of memory settings, in kB (the
// spelling is case-sensitive there too).
var memoryUnits = []struct {
	unit string
	kb   int64
}{{"TB", 1 << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}, {"kB", 1}}

// memorySetting reads a memory size: a bare number counts units of
// blockKB kB, or a number with B, kB, MB, GB or TB. lo and hi bound it in
// those units; SHOW writes it in the largest unit that divides it, as
// PostgreSQL does.
func memorySetting(name string, blockKB, lo, hi int64) func(string) (string, error) {
	return func(v string) (string, error) {
		s := strings.TrimSpace(v)
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || i == 0 && s[i] == '-') {
			i++
		}
		n, err := strconv.ParseInt(s[:i], 10, 64)
		if err != nil {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q", name, v)
		}
		kb := n * blockKB
		if unit := strings.TrimSpace(s[i:]); unit != "" {
			found := false
			for _, u := range append(memoryUnits, struct {
				unit string
				kb   int64
			}{"B", 0}) {
				if unit == u.unit {
					found = true
					if u.kb == 0 {
						kb = n / 1024
					} else {
						kb = n * u.kb
					}
				}
			}
			if !found {
				return "", vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for parameter %q: %q", name, v).
					WithHint(`Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`)
			}
		}
		if blocks := kb / blockKB; blocks < lo || blocks > hi {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "%d%s is outside the valid range for parameter %q (%d .. %d)",
				n, strings.TrimSpace(s[i:]), name, lo, hi)
		}
		kb = kb / blockKB * blockKB
		for _, u := range memoryUnits {
			if kb != 0 && kb%u.kb == 0 {
				return strconv.FormatInt(kb/u.kb, 10) + u.unit, nil
			}
		}
		return "0", nil
	}
}
