package sqltext

import "testing"

func TestDeallocateTarget(t *testing.T) {
	for in, want := range map[string]string{
		`DEALLOCATE "_PLAN0x1b2c"`:  "_PLAN0x1b2c",
		`deallocate prepare stmt_1`: "stmt_1",
		`DEALLOCATE ALL`:            "*",
		`DEALLOCATE`:                "",
	} {
		name, all := DeallocateTarget(in)
		if all {
			name = "*"
		}
		if name != want {
			t.Errorf("DeallocateTarget(%s) = %q, want %q", in, name, want)
		}
	}
}
