package server

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Target is what a connection's dbname selects.
type Target struct {
	Database string
	Branch   string // "" = main
	Snapshot string // "" = the live branch; else a snapshot id or name
	// Remote: the session reads a remote S3 head (dbname s3://…), read-only.
	Remote bool
}

// ParseDBName splits a dbname: "retail", "retail/cleanup", "retail@4",
// "retail@baseline". Each part must be a valid name (snapshot ids are
// digits).
func ParseDBName(dbname string) (Target, error) {
	var t Target
	name := dbname
	if i := strings.IndexAny(name, "/@"); i >= 0 {
		t.Database = name[:i]
		rest := name[i+1:]
		if name[i] == '/' {
			t.Branch = rest
			if err := sqltext.ValidName("branch", rest); err != nil {
				return t, vsqlerr.New(vsqlerr.InvalidName, "invalid dbname %q: %v", dbname, err)
			}
		} else {
			t.Snapshot = rest
			if !sqltext.IsDigits(rest) {
				if err := sqltext.ValidName("snapshot", rest); err != nil {
					return t, vsqlerr.New(vsqlerr.InvalidName, "invalid dbname %q: %v", dbname, err)
				}
			}
		}
	} else {
		t.Database = name
	}
	if err := sqltext.ValidName("database", t.Database); err != nil {
		return t, vsqlerr.New(vsqlerr.InvalidName, "invalid dbname %q: %v", dbname, err)
	}
	return t, nil
}
