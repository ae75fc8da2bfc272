package pgcompat

import "github.com/vsql/vsql/sqltext"

// PostgreSQL's JSON set-returning functions: json(b)_array_elements(_text),
// json(b)_each(_text) and json(b)_object_keys, as table macros (in FROM,
// LATERAL included) and, for those returning one column, also as scalar
// macros of the same name that unnest (in a select list, as PostgreSQL
// runs a set-returning function there). The json ones give the elements
// and members as written (Go functions of jsontext.go: json keeps its
// text, duplicate keys included), the jsonb ones DuckDB's. A NULL
// argument gives no rows; the wrong kind of JSON raises PostgreSQL's
// error (22023).
func init() {
	for _, prefix := range []string{"json", "jsonb"} {
		arrayElements, arrayElementsText, objectKeys := prefix+"_array_elements", prefix+"_array_elements_text", prefix+"_object_keys"
		each, eachText := prefix+"_each", prefix+"_each_text"
		// the elements and members as the value holds them (jsontext.go):
		// json's as written, jsonb's in jsonb's form (keys in its order,
		// the last of duplicates)
		t := "CAST(j AS VARCHAR)"
		values := "__vsql_json_values(" + t + ", '" + each + "')"
		elements := "__vsql_json_elements(" + t + ")"
		if prefix == "jsonb" {
			t = "__vsql_jsonb_text(CAST(j AS VARCHAR))"
			values = "CAST(__vsql_json_values(" + t + ", '" + each + "') AS JSON[])"
			elements = "CAST(__vsql_json_elements(" + t + ") AS JSON[])"
		}
		elementsText := "__vsql_json_elements_text(" + t + ")"
		keys := "__vsql_json_keys(" + t + ", '" + objectKeys + "')"
		eachBody := "SELECT unnest(__vsql_json_keys(" + t + ", '" + each + "')) AS key, unnest(" + values + ") AS value"
		pairs := "__vsql_json_pairs(" + t + ", '" + each + "')"
		if prefix == "jsonb" {
			pairs = "__vsql_jsonb_pairs(" + t + ", '" + each + "')"
		}
		pairsText := "__vsql_json_pairs_text(" + t + ", '" + eachText + "')"
		eachTextBody := "SELECT unnest(__vsql_json_keys(" + t + ", '" + eachText + "')) AS key, unnest(__vsql_json_values_text(" + t + ", '" + eachText + "')) AS value"
		// DuckDB has a json_each of its own (other columns); the macro is
		// pg_json_each, so that its body reaches DuckDB's.
		eachMacro := each
		if each == "json_each" {
			eachMacro = "pg_json_each"
		}
		setup = append(setup,
			"CREATE OR REPLACE MACRO "+schema+"."+arrayElements+"(j) AS TABLE SELECT unnest("+elements+") AS value",
			"CREATE OR REPLACE MACRO "+schema+"."+arrayElements+"(j) AS unnest("+elements+")",
			"CREATE OR REPLACE MACRO "+schema+"."+arrayElementsText+"(j) AS TABLE SELECT unnest("+elementsText+") AS value",
			"CREATE OR REPLACE MACRO "+schema+"."+arrayElementsText+"(j) AS unnest("+elementsText+")",
			"CREATE OR REPLACE MACRO "+schema+"."+objectKeys+"(j) AS TABLE SELECT unnest("+keys+") AS "+objectKeys,
			"CREATE OR REPLACE MACRO "+schema+"."+objectKeys+"(j) AS unnest("+keys+")",
			"CREATE OR REPLACE MACRO "+schema+"."+eachMacro+"(j) AS TABLE "+eachBody,
			"CREATE OR REPLACE MACRO "+schema+"."+eachText+"(j) AS TABLE "+eachTextBody,
			// in a select list, a record (key, value) a member
			"CREATE OR REPLACE MACRO "+schema+"."+eachMacro+"(j) AS unnest("+pairs+")",
			"CREATE OR REPLACE MACRO "+schema+"."+eachText+"(j) AS unnest("+pairsText+")",
		)
		// In a select list, the scalar macros; in FROM, the table macros.
		sqltext.ProvideFunctions(arrayElements, arrayElementsText, objectKeys, eachText)
		if each == "json_each" {
			sqltext.ProvideFunctionAs(each, eachMacro)
		} else {
			sqltext.ProvideFunctions(each)
		}
		sqltext.ProvideTableMacro(arrayElements, arrayElements, sqltext.TableMacroValue)
		sqltext.ProvideTableMacro(arrayElementsText, arrayElementsText, sqltext.TableMacroValue)
		sqltext.ProvideTableMacro(objectKeys, objectKeys, sqltext.TableMacroOneColumn)
		sqltext.ProvideTableMacro(each, eachMacro, sqltext.TableMacroColumns)
		sqltext.ProvideTableMacro(eachText, eachText, sqltext.TableMacroColumns)
	}
}
