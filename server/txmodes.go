package server

import (
	"regexp"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Transaction modes, as PostgreSQL has them: BEGIN / START TRANSACTION
// modes, SET TRANSACTION modes (for the open block) and SET SESSION
// CHARACTERISTICS AS TRANSACTION modes (the defaults of later blocks).
// The modes are ISOLATION LEVEL …, READ ONLY | READ WRITE and [NOT]
// DEFERRABLE. A read-only transaction refuses what writes (25006) before
// DuckDB runs it; the isolation level and DEFERRABLE are reported as set
// (DuckDB runs every transaction under snapshot isolation).

// txModes is a parsed mode list; empty fields were not given.
type txModes struct {
	isolation, readOnly, deferrable string
}

// parseTxModes reads a mode list (modes separated by commas or spaces).
func parseTxModes(s string) (txModes, error) {
	var m txModes
	words := strings.Fields(strings.ToLower(strings.NewReplacer(",", " , ", ";", " ").Replace(s)))
	bad := func() (txModes, error) {
		return txModes{}, vsqlerr.New(vsqlerr.SyntaxError, "syntax error in transaction modes: %q", strings.TrimSpace(s)).
			WithHint("Modes are ISOLATION LEVEL {SERIALIZABLE | REPEATABLE READ | READ COMMITTED | READ UNCOMMITTED}, READ WRITE, READ ONLY, [NOT] DEFERRABLE, separated by commas.")
	}
	at := func(i int, w ...string) bool {
		if i+len(w) > len(words) {
			return false
		}
		for k, x := range w {
			if words[i+k] != x {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(words); {
		switch {
		case words[i] == ",":
			i++
		case at(i, "isolation", "level", "serializable"):
			m.isolation, i = "serializable", i+3
		case at(i, "isolation", "level", "repeatable", "read"):
			m.isolation, i = "repeatable read", i+4
		case at(i, "isolation", "level", "read", "committed"):
			m.isolation, i = "read committed", i+4
		case at(i, "isolation", "level", "read", "uncommitted"):
			m.isolation, i = "read uncommitted", i+4
		case at(i, "read", "only"):
			m.readOnly, i = "on", i+2
		case at(i, "read", "write"):
			m.readOnly, i = "off", i+2
		case at(i, "deferrable"):
			m.deferrable, i = "on", i+1
		case at(i, "not", "deferrable"):
			m.deferrable, i = "off", i+2
		default:
			return bad()
		}
	}
	return m, nil
}

var (
	beginModes      = regexp.MustCompile(`(?is)^\s*(?:BEGIN|START)(?:\s+(?:TRANSACTION|WORK)\b)?(.*?)\s*;?\s*$`)
	setTransaction  = regexp.MustCompile(`(?is)^\s*SET\s+TRANSACTION\s+(.*?)\s*$`)
	setSessionModes = regexp.MustCompile(`(?is)^\s*SET\s+SESSION\s+CHARACTERISTICS\s+AS\s+TRANSACTION\s+(.*?)\s*$`)
)

// txSettingNames pairs each transaction setting with its session default.
var txSettingNames = map[string]string{
	"transaction_isolation":  "default_transaction_isolation",
	"transaction_read_only":  "default_transaction_read_only",
	"transaction_deferrable": "default_transaction_deferrable",
}

// endTransaction restores what a transaction block changed when it ends:
// its settings and cursors.
func (s *Session) endTransaction(committed bool) {
	s.endTxLog(committed)
	s.endTransactionSettings(committed)
	s.endTransactionCursors(committed)
	s.endTransactionCatalog()
}

// beginTransactionModes starts the open block's transaction settings
// from the session's defaults and the modes BEGIN gave.
func (s *Session) beginTransactionModes(m txModes) {
	s.txQueried = false
	for name, def := range txSettingNames {
		s.saveForTransaction(name, true)
		_ = s.applySetting(name, s.settingValue(def))
	}
	s.applyTxModes(m, "transaction_")
	s.beginTxLog()
}

// currentTxModes are the open transaction's modes (for AND CHAIN).
func (s *Session) currentTxModes() txModes {
	return txModes{isolation: s.transactionSetting("transaction_isolation"), readOnly: s.transactionSetting("transaction_read_only"),
		deferrable: s.transactionSetting("transaction_deferrable")}
}

func (s *Session) applyTxModes(m txModes, prefix string) {
	for name, v := range map[string]string{"isolation": m.isolation, "read_only": m.readOnly, "deferrable": m.deferrable} {
		if v != "" {
			if prefix == "transaction_" {
				s.saveForTransaction(prefix+name, true)
			}
			_ = s.applySetting(prefix+name, v)
		}
	}
}

// transactionSetting is the value SHOW gives for a transaction_*
// setting: the block's, else (each statement its own transaction) the
// session's default.
func (s *Session) transactionSetting(name string) string {
	if def, ok := txSettingNames[name]; ok && s.txStatus() == txIdle {
		return s.settingValue(def)
	}
	return s.settingValue(name)
}

// readOnlyTransaction reports whether the statement runs in a read-only
// transaction.
func (s *Session) readOnlyTransaction() bool {
	return s.transactionSetting("transaction_read_only") == "on"
}

// setTransactionStatement is SET TRANSACTION modes (inside a block; a
// warning outside one, as PostgreSQL) or SET SESSION CHARACTERISTICS AS
// TRANSACTION modes.
func (s *Session) setTransactionStatement(modes string, session bool) (pgwire.Statement, bool, error) {
	if f := strings.Fields(modes); len(f) > 0 && strings.EqualFold(f[0], "SNAPSHOT") {
		return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "SET TRANSACTION SNAPSHOT is not supported").
			WithHint("vsql has no exported snapshots; read a fixed version by connecting to db@snapshot instead.")
	}
	m, err := parseTxModes(modes)
	if err != nil {
		return nil, true, err
	}
	if session {
		return &settingStatement{apply: func() error {
			for name, v := range map[string]string{"default_transaction_isolation": m.isolation,
				"default_transaction_read_only": m.readOnly, "default_transaction_deferrable": m.deferrable} {
				if v != "" {
					s.saveForTransaction(name, false)
					_ = s.applySetting(name, v)
				}
			}
			return nil
		}}, true, nil
	}
	return &settingStatement{apply: func() error {
		if s.txStatus() == txIdle {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "25P01",
				Message: "SET TRANSACTION can only be used in transaction blocks"})
			return nil
		}
		return s.failed(s.checkTxModes(m))
	}}, true, nil
}

// checkTxModes applies modes to the open block: after its first query
// the isolation level is fixed and a read-only block stays read-only.
func (s *Session) checkTxModes(m txModes) error {
	if s.txQueried {
		if m.isolation != "" && m.isolation != s.settingValue("transaction_isolation") {
			return vsqlerr.New(vsqlerr.TransactionBlock, "SET TRANSACTION ISOLATION LEVEL must be called before any query").
				WithHint("Set the isolation level right after BEGIN (or in BEGIN ISOLATION LEVEL …), before the first query.")
		}
		if m.readOnly == "off" && s.settingValue("transaction_read_only") == "on" {
			return vsqlerr.New(vsqlerr.TransactionBlock, "transaction read-write mode must be set before any query").
				WithHint("A read-only transaction that ran a query stays read-only; COMMIT and BEGIN READ WRITE.")
		}
	}
	s.applyTxModes(m, "transaction_")
	return nil
}

// setTransactionValue is SET transaction_read_only = … and the like:
// the open block's mode; outside a block it changes nothing, as the
// statement is a transaction of its own.
func (s *Session) setTransactionValue(name, value string) (pgwire.Statement, bool, error) {
	v, err := settings[name].normalize(value)
	if err != nil {
		return nil, true, err
	}
	return &settingStatement{apply: func() error {
		if s.txStatus() == txIdle {
			return nil
		}
		var m txModes
		switch name {
		case "transaction_isolation":
			m.isolation = v
		case "transaction_read_only":
			m.readOnly = v
		default:
			m.deferrable = v
		}
		return s.failed(s.checkTxModes(m))
	}}, true, nil
}

// refuseReadOnly is the error for a statement that writes in a read-only
// transaction.
func refuseReadOnly(st sqltext.Statement) error {
	what := st.Keyword(0)
	switch what {
	case "CREATE", "DROP", "ALTER":
		if k := st.Keyword(1); k == "OR" {
			what += " " + st.Keyword(3)
		} else {
			what += " " + k
		}
	}
	return vsqlerr.New(vsqlerr.ReadOnlyTransaction, "cannot execute %s in a read-only transaction", what)
}
