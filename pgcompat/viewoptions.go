package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// viewOptions: CREATE [OR REPLACE] [TEMP] VIEW v [(…)] WITH (security_barrier,
// security_invoker = on, check_option = local) AS … (Supabase-style
// views declare security_invoker). DuckDB takes no view options; vsqld
// checks them as PostgreSQL does (a Boolean value, local or cascaded;
// any other name 22023) and drops them: a vsql view reads only tables of
// its own database, which a session's grants give or refuse as a whole,
// so whose privileges it runs with changes nothing, no leaky function
// pushdown needs a barrier, and a DuckDB view takes no writes for a
// check option to check.
func viewOptions(p *pass, i int) {
	if !p.isWord(0, "create") || p.kind(i+1) != sqltext.Open {
		return
	}
	view := false
	for j := 1; j < i; j++ {
		if p.isWord(j, "as") || p.kind(j) == sqltext.Open && !view {
			return
		}
		if p.isWord(j, "view") {
			view = true
		}
	}
	end := p.matchForward(i + 1)
	if !view || end < 0 || !p.isWord(end+1, "as") {
		return
	}
	for j := i + 2; j < end; {
		if p.kind(j) != sqltext.Word {
			return
		}
		name := strings.ToLower(p.text(j))
		value, k := "", j+1
		if p.isOp(k, "=") {
			value = p.text(k + 1)
			if p.kind(k+1) == sqltext.String {
				value = p.text(k + 1)
				value = strings.ReplaceAll(value[1:len(value)-1], "''", "'")
			}
			k += 2
		}
		switch name {
		case "security_barrier", "security_invoker":
			if value == "" {
				value = "true"
			}
			if _, ok := parseBool(value); !ok {
				p.fail(vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for boolean option %q: %s", name, value).WithHint(viewOptionsHint))
				return
			}
		case "check_option":
			if v := strings.ToLower(value); v != "local" && v != "cascaded" {
				p.fail(vsqlerr.New(vsqlerr.InvalidArgument, "invalid value for enum option \"check_option\": %s", value).
					WithHint("Valid values are \"local\" and \"cascaded\"."))
				return
			}
		default:
			p.fail(vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized parameter %q", name).WithHint(viewOptionsHint))
			return
		}
		if k == end {
			break
		}
		if !p.isOp(k, ",") {
			return
		}
		j = k + 1
	}
	p.replace(p.toks[i].Start, p.toks[end].End, "")
}

const viewOptionsHint = "A view takes the options security_barrier and security_invoker (Boolean) and check_option (local or cascaded): see docs/sql.md."
