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
	j := "CAST(j AS JSON)"
	kind := "json_type(" + j + ")"
	// guarded is j when it is JSON of the kind want, else an error naming
	// what it is; NULL stays NULL.
	guarded := func(want, value, errObject, errOther string) string {
		b := "CASE WHEN j IS NULL THEN NULL WHEN " + kind + " = '" + want + "' THEN " + value
		if errObject != "" {
			b += " WHEN " + kind + " = 'OBJECT' THEN error('[vsql:invalid_argument] " + errObject + "')"
		}
		return b + " ELSE error('[vsql:invalid_argument] " + errOther + "') END"
	}
	for _, prefix := range []string{"json", "jsonb"} {
		// Elements: the JSON values, or their text (strings unquoted, null
		// as NULL).
		elements := "CAST(" + guarded("ARRAY", "json_extract("+j+", '$[*]')",
			"cannot extract elements from an object", "cannot extract elements from a scalar") + " AS JSON[])"
		elementsText := "CAST(" + guarded("ARRAY", "json_extract_string("+j+", '$[*]')",
			"cannot extract elements from an object", "cannot extract elements from a scalar") + " AS VARCHAR[])"
		keys := "CAST(" + guarded("OBJECT", "json_keys("+j+")", "",
			"cannot call "+prefix+"_object_keys on ' || CASE WHEN "+kind+" = 'ARRAY' THEN 'an array' ELSE 'a scalar' END || '") + " AS VARCHAR[])"
		object := "CAST(" + guarded("OBJECT", j, "", "cannot call "+prefix+"_each on a non-object") + " AS JSON)"
		text := "CASE json_type(value) WHEN 'VARCHAR' THEN json_extract_string(value, '$') WHEN 'NULL' THEN NULL ELSE CAST(value AS VARCHAR) END"
		arrayElements, arrayElementsText, objectKeys := prefix+"_array_elements", prefix+"_array_elements_text", prefix+"_object_keys"
		each, eachText := prefix+"_each", prefix+"_each_text"
		var eachBody, eachTextBody string
		if prefix == "json" {
			// json: the elements and members as written (jsontext.go)
			t := "CAST(j AS VARCHAR)"
			elements = "__vsql_json_elements(" + t + ")"
			elementsText = "__vsql_json_elements_text(" + t + ")"
			keys = "__vsql_json_keys(" + t + ", 'json_object_keys')"
			eachBody = "SELECT unnest(__vsql_json_keys(" + t + ", 'json_each')) AS key, unnest(__vsql_json_values(" + t + ", 'json_each')) AS value"
			eachTextBody = "SELECT unnest(__vsql_json_keys(" + t + ", 'json_each_text')) AS key, unnest(__vsql_json_values_text(" + t + ", 'json_each_text')) AS value"
		} else {
			eachBody = "SELECT key, value FROM json_each(" + object + ")"
			eachTextBody = "SELECT key, " + text + " AS value FROM json_each(" + object + ")"
		}
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
		)
		// In a select list, the scalar macros; in FROM, the table macros.
		sqltext.ProvideFunctions(arrayElements, arrayElementsText, objectKeys)
		sqltext.ProvideTableMacro(arrayElements, arrayElements, sqltext.TableMacroValue)
		sqltext.ProvideTableMacro(arrayElementsText, arrayElementsText, sqltext.TableMacroValue)
		sqltext.ProvideTableMacro(objectKeys, objectKeys, sqltext.TableMacroOneColumn)
		sqltext.ProvideTableMacro(each, eachMacro, sqltext.TableMacroColumns)
		sqltext.ProvideTableMacro(eachText, eachText, sqltext.TableMacroColumns)
	}
}
