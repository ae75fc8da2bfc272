package catalog

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"
)

// Privilege is what a grant lets a user do on a database's branches; each
// includes the ones below it.
type Privilege int

// The privileges, in order.
const (
	NoPrivilege Privilege = iota
	// Read: connect, query, diff, preview merges.
	Read
	// Write: also write, snapshot and create branches.
	Write
	// Merge: also merge into, restore and delete branches.
	Merge
	// Admin: also grant, revoke and protect branches of the database.
	Admin
)

var privilegeNames = []string{"none", "read", "write", "merge", "admin"}

func (p Privilege) String() string {
	if p < 0 || int(p) >= len(privilegeNames) {
		return fmt.Sprintf("privilege(%d)", int(p))
	}
	return privilegeNames[p]
}

// ParsePrivilege reads read, write, merge or admin (case-insensitive).
func ParsePrivilege(s string) (Privilege, error) {
	for i, n := range privilegeNames[1:] {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Privilege(i + 1), nil
		}
	}
	return NoPrivilege, fmt.Errorf("unknown privilege %q (valid: read, write, merge, admin)", s)
}

// AllBranches is the branch pattern of a database-wide grant.
const AllBranches = "*"

// ValidBranchPattern checks a grant's branch pattern: a glob (path.Match
// syntax: * ? [...]) over branch names.
func ValidBranchPattern(pattern string) error {
	if pattern == "" {
		return fmt.Errorf("branch pattern must not be empty")
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Errorf("branch pattern %q: %v", pattern, err)
	}
	return nil
}

// MatchBranch reports whether a grant's pattern covers a branch.
func MatchBranch(pattern, branch string) bool {
	ok, err := path.Match(pattern, branch)
	return err == nil && ok
}

// Grant gives a user a privilege on the branches of one database that
// match a pattern.
type Grant struct {
	Database  string
	User      string
	Branches  string // glob; AllBranches for the whole database
	Privilege Privilege
	GrantedBy string
	CreatedAt time.Time
}

// ProtectedBranch is a branch that moves only by merges.
type ProtectedBranch struct {
	Database    string
	Branch      string
	ProtectedBy string
	CreatedAt   time.Time
}

// Grants lists every grant of every database, by database, user, pattern.
func (t *Tx) Grants(ctx context.Context) ([]Grant, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT d.name, g.user_name, g.branch_pattern, g.privilege, g.granted_by, g.created_at
		FROM grants g JOIN databases d ON d.id = g.database_id ORDER BY d.name, g.user_name, g.branch_pattern`)
	if err != nil {
		return nil, fmt.Errorf("list grants: %w", err)
	}
	defer rows.Close()
	var out []Grant
	for rows.Next() {
		var g Grant
		var priv, created string
		if err := rows.Scan(&g.Database, &g.User, &g.Branches, &priv, &g.GrantedBy, &created); err != nil {
			return nil, fmt.Errorf("list grants: %w", err)
		}
		if g.Privilege, err = ParsePrivilege(priv); err != nil {
			return nil, err
		}
		g.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, g)
	}
	return out, rows.Err()
}

// PutGrant records a grant, replacing the user's grant on the same
// database and pattern.
func (t *Tx) PutGrant(ctx context.Context, dbID int64, g Grant) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO grants (database_id, user_name, branch_pattern, privilege, granted_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (database_id, user_name, branch_pattern)
		DO UPDATE SET privilege = excluded.privilege, granted_by = excluded.granted_by, created_at = excluded.created_at`,
		dbID, g.User, g.Branches, g.Privilege.String(), g.GrantedBy, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("grant %s to %q: %w", g.Privilege, g.User, err)
	}
	return nil
}

// DeleteGrant removes a user's grant on a database and pattern; it reports
// whether there was one.
func (t *Tx) DeleteGrant(ctx context.Context, dbID int64, user, pattern string) (bool, error) {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM grants WHERE database_id = ? AND user_name = ? AND branch_pattern = ?`, dbID, user, pattern)
	if err != nil {
		return false, fmt.Errorf("revoke from %q: %w", user, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// ProtectedBranches lists every protected branch.
func (t *Tx) ProtectedBranches(ctx context.Context) ([]ProtectedBranch, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT d.name, p.branch, p.protected_by, p.created_at
		FROM protected_branches p JOIN databases d ON d.id = p.database_id ORDER BY d.name, p.branch`)
	if err != nil {
		return nil, fmt.Errorf("list protected branches: %w", err)
	}
	defer rows.Close()
	var out []ProtectedBranch
	for rows.Next() {
		var p ProtectedBranch
		var created string
		if err := rows.Scan(&p.Database, &p.Branch, &p.ProtectedBy, &created); err != nil {
			return nil, fmt.Errorf("list protected branches: %w", err)
		}
		p.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, p)
	}
	return out, rows.Err()
}

// SetBranchProtection protects or unprotects a branch of a database.
func (t *Tx) SetBranchProtection(ctx context.Context, dbID int64, branch string, protected bool, by string) error {
	var err error
	if protected {
		_, err = t.tx.ExecContext(t.ctx, `INSERT INTO protected_branches (database_id, branch, protected_by, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (database_id, branch) DO NOTHING`, dbID, branch, by, time.Now().UTC().Format(time.RFC3339Nano))
	} else {
		_, err = t.tx.ExecContext(t.ctx, `DELETE FROM protected_branches WHERE database_id = ? AND branch = ?`, dbID, branch)
	}
	if err != nil {
		return fmt.Errorf("set protection of branch %q: %w", branch, err)
	}
	return nil
}
