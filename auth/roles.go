package auth

import (
	"fmt"
	"strings"
)

// Role is what a user may do across the whole server. Per-database rights
// of write and read users come from grants (package catalog); the role is
// the ceiling and the default.
type Role string

// The roles, from most to least powerful.
const (
	// RoleAdmin is PostgreSQL's superuser: every database, server files
	// under --file-access, process-wide settings, grants and users.
	RoleAdmin Role = "admin"
	// RoleWrite may read and write the databases it was granted, snapshot
	// them and create branches there.
	RoleWrite Role = "write"
	// RoleRead may only read the databases it was granted.
	RoleRead Role = "read"
)

// DefaultRole is the role of a user added without --role.
const DefaultRole = RoleWrite

// LegacyRole is the role of a users-file line written before roles
// existed (two fields). Such users could do everything then; giving them
// less on upgrade would lock an operator out of a running installation.
const LegacyRole = RoleAdmin

// Roles lists the valid roles, most powerful first.
var Roles = []Role{RoleAdmin, RoleWrite, RoleRead}

// ParseRole reads a role name (case-insensitive).
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	for _, valid := range Roles {
		if r == valid {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown role %q (valid: admin, write, read)", s)
}

// User is one line of the users file.
type User struct {
	Verifier Verifier
	Role     Role
	// Legacy is true for a line written without a role (before roles
	// existed); its Role is LegacyRole.
	Legacy bool
}
