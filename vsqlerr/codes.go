package vsqlerr

// Code is a stable symbolic error code.
type Code string

// The codes, grouped by when they occur. docs/errors.md lists each with what
// to do; keep both in step.
const (
	// Connecting.
	DatabaseNotFound   Code = "database_not_found"
	TooManyConnections Code = "too_many_connections"
	ProtocolViolation  Code = "protocol_violation"
	MessageTooLarge    Code = "message_too_large"
	ServerShutdown     Code = "server_shutdown"

	// Connecting: startup deadline, databases that cannot be attached.
	AuthenticationTimeout Code = "authentication_timeout"
	DatabaseUnavailable   Code = "database_unavailable"

	// Authentication and TLS.
	AuthFailed       Code = "auth_failed"
	AuthRequired     Code = "auth_required"
	UsersFileInvalid Code = "users_file_invalid"
	TLSConfigInvalid Code = "tls_config_invalid"
	UserNotFound     Code = "user_not_found"
	UserExists       Code = "user_exists"

	// Privileges (roles, grants, protected branches).
	PermissionDenied Code = "permission_denied"
	// ServerFileAccess refuses reaching the server's files through SQL:
	// any file for write and read sessions, the repository for everyone.
	ServerFileAccess Code = "server_file_access"
	// CantChangeRuntimeParam refuses a DuckDB setting vsqld fixes at
	// start (threads).
	CantChangeRuntimeParam Code = "cant_change_runtime_param"

	// Databases.
	DatabaseExists Code = "database_exists"
	DatabaseInUse  Code = "database_in_use"
	InvalidName    Code = "invalid_name"

	// Branches and snapshots.
	BranchNotFound    Code = "branch_not_found"
	BranchExists      Code = "branch_exists"
	BranchProtected   Code = "branch_protected"
	BranchInUse       Code = "branch_in_use"
	BranchDirty       Code = "branch_dirty"
	SnapshotNotFound  Code = "snapshot_not_found"
	SnapshotExists    Code = "snapshot_exists"
	NoSnapshot        Code = "no_snapshot"
	SnapshotReadOnly  Code = "snapshot_read_only"
	SnapshotDeleted   Code = "snapshot_deleted"
	SnapshotInUse     Code = "snapshot_in_use"
	SnapshotProtected Code = "snapshot_protected"
	InvalidArgument   Code = "invalid_argument"
	ActiveTransaction Code = "active_attachment_or_transaction"
	ReservedName      Code = "reserved_name"
	RepositoryInUse   Code = "repository_in_use"
	StorageCorrupt    Code = "storage_corrupt"

	// Merges.
	MergeConflict         Code = "merge_conflict"
	MergeUnsupported      Code = "merge_unsupported"
	MergeTargetDirty      Code = "merge_target_dirty"
	MergeInputsChanged    Code = "merge_inputs_changed"
	MergeBaseAmbiguous    Code = "merge_base_ambiguous"
	MergeBaseUnavailable  Code = "merge_base_unavailable"
	MergeBaseDeleted      Code = "merge_base_deleted"
	MergeValidationFailed Code = "merge_validation_failed"
	RequestIDReused       Code = "request_id_reused"
	MergeLimitExceeded    Code = "merge_limit_exceeded"
	MergeAborted          Code = "merge_aborted"
	MergeSchemaConflict   Code = "merge_schema_conflict"
	HeadConflict          Code = "head_conflict"
	MergeRequestRequired  Code = "merge_request_required"
	PublicationPending    Code = "merge_publication_pending"
	RemoteUnavailable     Code = "remote_unavailable"
	LakehouseUnavailable  Code = "lakehouse_unavailable"

	// Statements and transactions.
	InFailedTransaction Code = "in_failed_transaction"
	TransactionBlock    Code = "transaction_block"
	ChainOutsideBlock   Code = "chain_outside_transaction"
	EnumLabelExists     Code = "enum_label_exists"
	InvalidEnumLabel    Code = "invalid_enum_label"
	// Partitioned tables (server/partition.go).
	NoPartitionForRow     Code = "no_partition_for_row"
	PartitionConstraint   Code = "partition_constraint_violation"
	PartitionOverlap      Code = "invalid_partition_definition"
	InvalidPartitionBound Code = "invalid_partition_bound"
	PartitionColumns      Code = "partition_column_mismatch"
	TableNotFound         Code = "undefined_table"
	SchemaNotFound        Code = "invalid_schema_name"
	RangeBoundOrder       Code = "invalid_range_bound"
	WrongObjectType       Code = "wrong_object_type"
	// Views (server/viewddl.go).
	InvalidTableDefinition Code = "invalid_table_definition"
	ReadOnlyTransaction    Code = "read_only_transaction"
	// Domains (server/domain.go).
	DomainCheck         Code = "domain_check_violation"
	DomainNotNull       Code = "domain_not_null_violation"
	DependentObjects    Code = "dependent_objects_still_exist"
	DuplicateObject     Code = "duplicate_object"
	SyntaxError         Code = "syntax_error"
	FeatureNotSupported Code = "feature_not_supported"
	QueryCanceled       Code = "query_canceled"
	MultipleStatements  Code = "multiple_statements"
	StatementNotFound   Code = "statement_not_found"
	PortalNotFound      Code = "portal_not_found"
	DuplicateStatement  Code = "duplicate_statement"
	DuplicatePortal     Code = "duplicate_portal"
	// SQL cursors (DECLARE, FETCH, MOVE, CLOSE).
	CursorNotFound          Code = "cursor_not_found"
	DuplicateCursor         Code = "duplicate_cursor"
	CursorOutsideBlock      Code = "cursor_outside_transaction"
	CursorForwardOnly       Code = "cursor_forward_only"
	CursorSyntax            Code = "cursor_syntax"
	InvalidCursorState      Code = "invalid_cursor_state"
	InvalidParameter        Code = "invalid_parameter"
	SequenceParameter       Code = "invalid_sequence_parameter"
	DivisionByZero          Code = "division_by_zero"
	InvalidDatetimeFormat   Code = "invalid_datetime_format"
	DatetimeFieldOverflow   Code = "datetime_field_overflow"
	InvalidTextValue        Code = "invalid_text_representation"
	NumericOutOfRange       Code = "numeric_value_out_of_range"
	FloatingPointException  Code = "floating_point_exception"
	TemplateSyntax          Code = "invalid_template"
	InvalidRegex            Code = "invalid_regular_expression"
	InvalidUnicodeEscape    Code = "invalid_unicode_escape"
	InvalidEscapeSequence   Code = "invalid_escape_sequence"
	InvalidParameterFormat  Code = "invalid_parameter_format"
	UnsupportedResultFormat Code = "unsupported_result_format"
	ArrayDimensions         Code = "array_dimensions_mismatch"
	DatatypeMismatch        Code = "datatype_mismatch"
	InvalidRowCount         Code = "invalid_row_count"
	WindowingError          Code = "windowing_error"
	NthValueArgument        Code = "invalid_argument_for_nth_value"
	ArraySubscript          Code = "array_subscript_error"
	ProgramLimit            Code = "program_limit_exceeded"
	IndeterminateDatatype   Code = "indeterminate_datatype"
	StringLengthMismatch    Code = "string_data_length_mismatch"
	StringTooLong           Code = "string_data_right_truncation"
	SubstringError          Code = "substring_error"
	CannotCoerce            Code = "cannot_coerce"
	InvalidPower            Code = "invalid_power"
	CardinalityViolation    Code = "cardinality_violation"
	JSONPathBoolean         Code = "singleton_sql_json_item_required"
	NullValueNotAllowed     Code = "null_value_not_allowed"
	// json's text of a string holding \u0000 (pgcompat/jsontext.go).
	UntranslatableCharacter Code = "untranslatable_character"
	ZeroLengthString        Code = "zero_length_character_string"
	UndefinedObject         Code = "undefined_object"
	// setval (server/sequences.go).
	SequenceNotFound    Code = "sequence_not_found"
	SequenceOutOfBounds Code = "sequence_out_of_bounds"
	// currval or lastval before the session's nextval (server/seqvalues.go).
	SequenceValueUndefined Code = "sequence_value_undefined"
	// CREATE SEQUENCE … OWNED BY a table of another schema.
	SequenceOwnerSchema Code = "sequence_owner_schema"
	UndefinedColumn     Code = "undefined_column"
	// Text read as a date, timestamp or time (PostgreSQL's input).
	InvalidDatetimeInput Code = "invalid_datetime_input"
	// IntervalFieldOverflow: an interval's input beyond what a field holds.
	IntervalFieldOverflow Code = "interval_field_overflow"
	InvalidTimeZone       Code = "invalid_time_zone"
	DatetimeNeedsSession  Code = "datetime_needs_session"
	ZoneDisplacement      Code = "invalid_time_zone_displacement"

	// COPY FROM STDIN / TO STDOUT.
	CopySyntax       Code = "copy_syntax_error"
	CopyOption       Code = "invalid_copy_option"
	CopyBadFormat    Code = "bad_copy_file_format"
	CopyInvalidValue Code = "copy_invalid_value"
	CopyFailed       Code = "copy_failed"

	// Anything else.
	Internal Code = "internal_error"
)

// Recursive queries (WITH RECURSIVE) PostgreSQL refuses before running
// them, and their SEARCH and CYCLE clauses (pgcompat/recursive.go).
const (
	InvalidRecursion       Code = "invalid_recursion"
	InvalidColumnReference Code = "invalid_column_reference"
	DuplicateColumn        Code = "duplicate_column"
	CycleMarkType          Code = "cycle_mark_type"
)

type codeInfo struct {
	SQLState string
	Hint     string
}

// codes is the one table of vsql error codes.
var codes = map[Code]codeInfo{
	DatabaseNotFound:   {"3D000", "Connect to an existing database (\"postgres\" always exists); CREATE DATABASE name creates one."},
	TooManyConnections: {"53300", "Close idle connections or raise --max-connections."},
	ProtocolViolation:  {"08P01", "The client sent a message the PostgreSQL protocol (version 3) does not allow here; reconnect."},
	MessageTooLarge:    {"54000", "Send smaller messages (split large statements or use COPY), or raise --max-message-size."},
	ServerShutdown:     {"57P01", "The server is shutting down; reconnect when it is back."},

	AuthenticationTimeout: {"08006", "The client did not finish connecting (SSL negotiation, startup packet, password exchange) within --authentication-timeout; check the network and the client, or raise --authentication-timeout."},
	DatabaseUnavailable:   {"57P03", "The database exists but its file could not be attached (the message and the server log give DuckDB's reason): check its live file under <data>/live/<db>/ and run vsqld verify, or DROP DATABASE it; other databases are served meanwhile, and each new connection retries."},

	AuthFailed:       {"28P01", "Check the user name and password; an administrator sets them with vsqld user add NAME --password-stdin."},
	AuthRequired:     {"28000", "No users are configured, so vsqld trusts only loopback clients: add a user on the server with vsqld user add NAME --password-stdin and connect with that name and password, or start vsqld with --trust-all to trust every client."},
	UsersFileInvalid: {"F0000", "Fix the users file named in the message (one line per user: name SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey), or recreate it with vsqld user add."},
	TLSConfigInvalid: {"F0000", "Give --tls-cert and --tls-key together, naming a PEM certificate (chain) and its PEM private key."},
	UserNotFound:     {"42704", "List users with vsqld user list."},
	UserExists:       {"42710", "Pass --replace to vsqld user add to change the user's password."},

	PermissionDenied:       {"42501", "Ask an admin (or an admin of the database) for a grant: SELECT * FROM vsql_grant('db', 'user', 'read|write|merge|admin', branch => 'pattern'); SELECT * FROM vsql_privileges('db') lists the grants."},
	ServerFileAccess:       {"42501", "Server files are for the admin role, in --file-access directories only; use COPY … FROM STDIN / TO STDOUT (psql \\copy)."},
	CantChangeRuntimeParam: {"55P02", "Restart vsqld with the value you want (vsqld serve --threads n)."},

	DatabaseExists: {"42P04", "Choose another name, or DROP DATABASE the existing one first."},
	DatabaseInUse:  {"55006", "Disconnect the other sessions of that database first (vsql never terminates them for you)."},
	InvalidName:    {"42602", "Names are 1 to 63 letters, digits, '_' or '-', starting with a letter or '_'."},

	BranchNotFound:    {"3D000", "List branches with SELECT * FROM vsql_branches('db'); create one with vsql_create_branch."},
	BranchExists:      {"42P04", "Choose another branch name, or delete the existing branch first (vsql_delete_branch)."},
	BranchProtected:   {"42501", "A protected branch changes only by merges (vsql_merge_branch, with the merge privilege); a database admin lifts the protection with vsql_set_branch_protection(db, branch, protected => false). main itself is never deleted: drop the database instead."},
	BranchInUse:       {"55006", "Disconnect the sessions attached to that branch first."},
	BranchDirty:       {"55000", "Snapshot the branch first (vsql_create_snapshot), or pass force => true to discard its unsnapshotted writes."},
	SnapshotNotFound:  {"3D000", "List snapshots with SELECT * FROM vsql_snapshots('db')."},
	SnapshotExists:    {"42710", "Snapshot names are unique per database; choose another name."},
	NoSnapshot:        {"55000", "The branch has no snapshot yet; create one with vsql_create_snapshot first."},
	SnapshotReadOnly:  {"25006", "Snapshots are read-only; connect to a branch (db or db/branch) to write."},
	SnapshotDeleted:   {"3D000", "The snapshot's content was deleted (vsql_delete_snapshot or the database's retention, vsql_set_retention); read a snapshot that is kept: SELECT * FROM vsql_snapshots('db')."},
	SnapshotInUse:     {"55006", "A branch head, a snapshot an unfinished merge request needs (finish or abort it: vsql_merge_requests, vsql_abort_merge) or one a session reads (disconnect it) cannot be deleted."},
	SnapshotProtected: {"55000", "Named snapshots and the merge bases of the branch heads are kept; pass force => true to delete one anyway."},
	InvalidArgument:   {"22023", "Check the function's arguments in docs/sql.md."},
	ActiveTransaction: {"55006", "A session attached to the branch has an open transaction; wait for it to COMMIT or ROLLBACK, then retry."},
	ReservedName:      {"42939", "Names starting with __vsql are reserved for vsql's internals; call the vsql_* functions instead."},
	RepositoryInUse:   {"55006", "Another vsqld (or vsqld gc) is using this repository; stop it or use another --data directory."},
	StorageCorrupt:    {"XX001", "Run vsqld verify to list damaged blocks; restore them from a replica or backup."},

	MergeConflict:         {"VS001", "Preview the merge (vsql_merge_branch_preview) and look at conflict_details; resolve the conflicts in the input branches, then merge again."},
	MergeUnsupported:      {"VS002", "The named object is outside what merges support (docs/sql.md, Merging); change it in the inputs or merge that data by hand."},
	MergeTargetDirty:      {"VS003", "Snapshot the target branch first (vsql_create_snapshot), or pass snapshot_target => true."},
	MergeInputsChanged:    {"VS004", "A branch moved since you reviewed it: preview again and pass the new expected_*_snapshot_id values."},
	MergeBaseAmbiguous:    {"VS005", "The history has several best common ancestors; pick the base yourself with vsql_merge_snapshots."},
	MergeBaseDeleted:      {"VS015", "The common ancestor of ours and theirs was deleted, so a three-way merge cannot read it; merge with vsql_merge_snapshots and a base you choose, and keep merge bases (retention keeps them unless they are deleted by force)."},
	MergeBaseUnavailable:  {"VS006", "No common ancestor is recorded for these snapshots; pick a base yourself with vsql_merge_snapshots."},
	MergeValidationFailed: {"23000", "The merged data breaks a constraint of the target table; fix the data in one of the inputs and merge again."},
	RequestIDReused:       {"VS007", "A request_id belongs to one set of arguments; use a new request_id for a different merge."},
	MergeAborted:          {"VS009", "The request was aborted and is terminal; start a new merge with a new request_id."},
	HeadConflict:          {"VS011", "Another writer moved the S3 head since this writer last saw it; nothing was recorded locally. Decide which history wins: restore or branch from the other host's snapshots, or use another remote prefix."},
	MergeRequestRequired:  {"VS013", "Merges into a database with an S3 remote publish in several durable steps; pass request_id => 'a-unique-name' so a retry can finish an interrupted one."},
	PublicationPending:    {"VS014", "The request's S3 head write may still have landed; retry the merge with the same request_id to settle it (it reads the head back), then abort if it did not publish."},
	RemoteUnavailable:     {"VS012", "S3 did not answer as expected; check the endpoint and credentials (AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID, AWS_REGION) and retry the same call; nothing was recorded locally."},
	LakehouseUnavailable:  {"VS016", "vsqld could not open the lakehouse's Iceberg catalog or warehouse: check that the directory is writable by vsqld (or the S3 endpoint and credentials) and call vsql_set_lakehouse again; nothing was recorded."},
	MergeSchemaConflict:   {"VS010", "Schema conflicts block the whole merge and resolution tables cannot decide them: see schema_conflict_details in vsql_merge_branch_preview, change one input so the objects agree, snapshot it, and merge again."},
	MergeLimitExceeded:    {"VS008", "Raise the limit for this call (max_rows =>, timeout =>) or merge smaller changes."},

	InFailedTransaction:     {"25P02", "Run ROLLBACK to end the failed transaction, then retry."},
	TransactionBlock:        {"25001", "Run this statement outside BEGIN … COMMIT."},
	ReadOnlyTransaction:     {"25006", "The transaction is READ ONLY (BEGIN READ ONLY, SET TRANSACTION READ ONLY or SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY); write in a READ WRITE transaction."},
	SyntaxError:             {"42601", "Check the statement's syntax against docs/sql.md."},
	FeatureNotSupported:     {"0A000", "See docs/sql.md for what vsql supports."},
	QueryCanceled:           {"57014", "The statement was cancelled at your request; the session is still usable."},
	MultipleStatements:      {"42601", "Prepare one statement at a time, or send several through the simple query protocol."},
	StatementNotFound:       {"26000", "Parse the statement before binding or describing it."},
	PortalNotFound:          {"34000", "Bind the portal before executing or describing it."},
	DuplicateStatement:      {"42P05", "Close (or DEALLOCATE) the prepared statement first, or use another name."},
	DuplicatePortal:         {"42P03", "Close the portal first, or use another name."},
	CursorNotFound:          {"34000", "DECLARE the cursor first (inside the transaction block that reads it, or WITH HOLD)."},
	DuplicateCursor:         {"42P03", "CLOSE the cursor first, or use another name."},
	CursorOutsideBlock:      {"25P01", "Run DECLARE … CURSOR inside BEGIN … COMMIT, or declare it WITH HOLD."},
	ChainOutsideBlock:       {"25P01", "AND CHAIN continues a transaction block: BEGIN first, or leave AND CHAIN out."},
	InvalidEnumLabel:        {"42602", "Labels must be 1 to 63 bytes long, as in PostgreSQL."},
	NoPartitionForRow:       {"23514", "Create the partition the row belongs to (CREATE TABLE … PARTITION OF … FOR VALUES …), or a DEFAULT partition that takes every other row."},
	PartitionConstraint:     {"23514", "A row written through a partition must satisfy that partition's bound: write it through the partitioned table, which routes it, or change the bound."},
	PartitionOverlap:        {"42P17", "Bounds of sibling partitions may not overlap, a range must be non-empty, a table has one DEFAULT partition and only a partitioned table takes partitions: docs/sql.md (Partitioned tables) says how the bounds are read."},
	InvalidPartitionBound:   {"42P16", "Use FOR VALUES IN (…) for a LIST partitioned table and FOR VALUES FROM (…) TO (…) for a RANGE one, with one value per key column."},
	InvalidTableDefinition:  {"42P16", "A replacement view (CREATE OR REPLACE VIEW) keeps the columns of the view it replaces and may only add others after them; a view that reads a temporary table is temporary. DROP VIEW and CREATE VIEW to change the columns."},
	WrongObjectType:         {"42809", "The statement does not apply to that kind of object; the message says which kind it needs."},
	RangeBoundOrder:         {"42804", "In a range bound, the values after a MINVALUE must all be MINVALUE, and after a MAXVALUE all MAXVALUE: FROM (1, MINVALUE, MINVALUE)."},
	SchemaNotFound:          {"3F000", "Check the schema's name (public is main): SELECT schema_name FROM information_schema.schemata lists them."},
	TableNotFound:           {"42P01", "Check the table's name (schema public is main): \\dt in psql, or SELECT * FROM information_schema.tables, lists the tables."},
	DomainCheck:             {"23514", "The value must satisfy every CHECK constraint of the domain (and of the domains it is based on): SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contypid = 'name'::regtype lists them in PostgreSQL; in vsql, docs/sql.md (Domains)."},
	DomainNotNull:           {"23502", "The domain is NOT NULL: give the column or the cast a value, or give the domain a DEFAULT (when the domain has no column default to supply)."},
	DependentObjects:        {"2BP01", "Drop or change the dependent objects the detail lists first, or add CASCADE to drop them too."},
	DuplicateObject:         {"42710", "Choose another name, or drop the existing object first."},
	PartitionColumns:        {"42804", "A table attached as a partition must have exactly the parent's columns; add or drop columns to match first."},
	EnumLabelExists:         {"42710", "Add the label with IF NOT EXISTS to skip it when it is there: ALTER TYPE t ADD VALUE IF NOT EXISTS '…'."},
	CursorForwardOnly:       {"55000", "Declare the cursor with the SCROLL option to fetch backward or by absolute position."},
	InvalidCursorState:      {"24000", "UPDATE or DELETE … WHERE CURRENT OF needs a cursor of this transaction block, positioned on a row (FETCH it first), whose query reads the table alone (no join, grouping, aggregate, DISTINCT or set operation) or names it in FOR UPDATE/FOR SHARE."},
	CursorSyntax:            {"42601", "See docs/sql.md, Cursors: DECLARE name [SCROLL] CURSOR [WITH HOLD] FOR query; FETCH [direction] [FROM] name; MOVE; CLOSE name | ALL."},
	InvalidParameter:        {"22P02", "Check the parameter value against the parameter's type."},
	DivisionByZero:          {"22012", "A divisor (of / or %) was zero, which PostgreSQL refuses; guard it, e.g. x / NULLIF(y, 0)."},
	InvalidDatetimeFormat:   {"22007", "The text does not match the template of to_timestamp/to_date (see PostgreSQL's template patterns); FM before a field lets its width vary."},
	DatetimeFieldOverflow:   {"22008", "A field of the date or time is out of its range (month 1-12, day of the month, hour 0-23 or 1-12 with AM/PM)."},
	InvalidEscapeSequence:   {"22025", "In E'…' strings write \\uXXXX (four hex digits) or \\UXXXXXXXX (eight), a high surrogate followed by a low one."},
	InvalidUnicodeEscape:    {"42601", "Write Unicode escapes as \\XXXX, \\+XXXXXX, \\uXXXX or \\UXXXXXXXX, a high surrogate followed by a low one."},
	InvalidRegex:            {"2201B", "The pattern is not a regular expression RE2 (the dialect of DuckDB's and vsql's regexp functions) accepts; lookahead and back references are not supported."},
	TemplateSyntax:          {"42601", "The formatting template of to_char or to_number combines fields PostgreSQL refuses together (see PostgreSQL's template patterns for numeric formatting)."},
	InvalidTextValue:        {"22P02", "The text cannot be read as a value of the type; check its spelling against PostgreSQL's input syntax for the type."},
	FloatingPointException:  {"22P01", "An integer division overflowed (the most negative money divided by -1); PostgreSQL's process traps it as a floating-point exception."},
	NumericOutOfRange:       {"22003", "The value is beyond the type's range (double precision: about 1e-308 to 1e308; real: about 1e-38 to 1e38)."},
	InvalidParameterFormat:  {"08P01", "Send one format code, or one per parameter, each 0 (text) or 1 (binary)."},
	UnsupportedResultFormat: {"0A000", "Request this column in text format (format code 0)."},
	UndefinedObject:         {"42704", "Check the name: SELECT conname FROM pg_constraint lists the constraints."},
	SequenceNotFound:        {"42P01", "Check the sequence's name (schema public is main): SELECT schema_name, sequence_name FROM duckdb_sequences() lists them."},
	SequenceOwnerSchema:     {"55000", "A sequence's owner is a column of a table in the sequence's schema: create the sequence in that schema, or OWNED BY NONE."},
	UndefinedColumn:         {"42703", "Check the column's (or the composite field's) name: SELECT column_name FROM information_schema.columns WHERE table_name = '…' lists a table's columns."},
	SequenceValueUndefined:  {"55000", "currval(s) and lastval() return what nextval returned in this session: call nextval first (DISCARD SEQUENCES forgets the values)."},
	SequenceOutOfBounds:     {"22003", "setval's value must lie between the sequence's MINVALUE and MAXVALUE (duckdb_sequences() shows them)."},
	UntranslatableCharacter: {"22P05", "A JSON string holding \\u0000 has no text: leave the escape out, or read the value as json (->) instead of text (->>)."},
	NullValueNotAllowed:     {"22004", "Pass a value that is not NULL, e.g. coalesce(x, …) (in format(): %L writes NULL, %s nothing)."},
	ZeroLengthString:        {"2200F", "Leave the empty string out: a lexeme has at least one character."},
	JSONPathBoolean:         {"22038", "jsonb_path_match needs a path that returns one boolean (a predicate such as $.a == 1); the @@ operator answers NULL instead."},
	ArraySubscript:          {"2202E", "The index must lie within the value: a bytea of n bytes has bytes 0 to n-1 (bits 0 to 8n-1), a bit string of n bits bits 0 to n-1, an array's elements are counted from 1 along each dimension (array_dims shows them), and a slice assigned takes as many elements from its source."},
	IndeterminateDatatype:   {"42P18", "Cast the empty array to the type it should have: ARRAY[]::integer[]."},
	ProgramLimit:            {"54000", "PostgreSQL's arrays have at most 6 dimensions and 134217727 elements: use fewer subscripts, or a slice whose upper bound is not below its lower bound."},
	StringLengthMismatch:    {"22026", "A bit(n) value has exactly n bits: cast the value (x::bit(n) pads or cuts it on the right), and give &, | and # operands of one length."},
	StringTooLong:           {"22001", "A bit varying(n) value has at most n bits: cast it (x::bit varying(n) cuts it on the right) or widen the type."},
	SubstringError:          {"22011", "Give substring a length of 0 or more."},
	CannotCoerce:            {"42846", "PostgreSQL has no cast between these types: a bit string casts to and from integer and bigint (x::int, 5::bit(4)) and text (x::text, '0101'::bit(4)) only."},
	InvalidRowCount:         {"2201W", "FETCH FIRST n ROWS WITH TIES needs a count that is not NULL and not negative."},
	NthValueArgument:        {"22016", "nth_value(x, n) counts rows from 1: give an n of 1 or more."},
	WindowingError:          {"42P20", "A window with a GROUPS frame needs an ORDER BY: add one to the window (OVER (PARTITION BY a ORDER BY b GROUPS …))."},
	DatatypeMismatch:        {"42804", "VARIADIC passes an array's elements as the arguments: write VARIADIC ARRAY[…] (or an array column), or the values as separate arguments."},
	ArrayDimensions:         {"2202E", "A PostgreSQL array is rectangular: give every sub-list of a list of lists the same length (and no NULL sub-list), or request the column in text format."},
	IntervalFieldOverflow:   {"22015", "An interval holds at most 2^31-1 months and days and 2^63-1 microseconds (about 292,271 years of time): split the value, or keep it in another type."},
	InvalidDatetimeInput:    {"22007", "Write dates and times as PostgreSQL reads them: ISO 8601 (1999-01-08 04:05:06), or a form of PostgreSQL's manual, section 8.5.1 ('January 8, 1999', '1/8/1999' month first); see docs/sql.md."},
	CardinalityViolation:    {"21000", "Ensure that no rows proposed for insertion within the same command have duplicate constrained values: merge the duplicates, or upsert them in separate statements."},
	InvalidPower:            {"2201F", "PostgreSQL has no value for 0 raised to a negative power or a negative number raised to a non-integer one: check the operands (cast the base to a float type and use abs() if a real result is meant)."},
	SequenceParameter:       {"22023", "A sequence's MINVALUE must be below its MAXVALUE, its START and RESTART values between them, its INCREMENT not zero, and its bounds within its type (AS smallint, integer, bigint): see docs/sql.md, What ORMs and tools send."},
	InvalidTimeZone:         {"22023", "Name the zone as the IANA database does (Europe/Paris), by an abbreviation PostgreSQL knows (PST, CET) or as an offset (+02:00)."},
	ZoneDisplacement:        {"22009", "A numeric UTC offset must lie within ±15:59:59."},
	InvalidRecursion:        {"42P19", "A recursive query is non-recursive-term UNION [ALL] recursive-term, and its recursive term reads the query once, in its own FROM clause (not in a subquery, the nullable side of an outer join, INTERSECT ALL or EXCEPT), without aggregates: docs/sql.md, Recursive queries."},
	InvalidColumnReference:  {"42P10", "Name at most as many columns in the WITH query's column list as its query has."},
	DuplicateColumn:         {"42701", "Name each column once in the SEARCH or CYCLE clause."},
	CycleMarkType:           {"42804", "Give a CYCLE clause's TO and DEFAULT values of one type (true and false, or two strings such as 'Y' and 'N')."},
	DatetimeNeedsSession:    {"0A000", "Write the value as a typed literal (date '…', '…'::timestamp), which is read in the session's DateStyle and TimeZone, in ISO 8601 (1999-01-08), or as now() / current_date."},

	CopySyntax:       {"42601", "Write COPY table [(columns)] FROM STDIN or COPY table|(query) TO STDOUT, then [WITH] (option value, …); see docs/sql.md, COPY."},
	CopyOption:       {"22023", "See docs/sql.md, COPY, for the options vsql accepts and their values."},
	CopyBadFormat:    {"22P04", "The named line does not match the COPY format (column count, quoting, escapes, header); fix it and COPY again. Nothing was loaded."},
	CopyInvalidValue: {"22P02", "The value on the named line cannot be read as the column's type; fix it (or load that column as text) and COPY again. Nothing was loaded."},
	CopyFailed:       {"57014", "The client ended the COPY with CopyFail; nothing was loaded."},

	Internal: {"XX000", "This is a bug in vsql; please report it with the statement that caused it."},
}

func lookup(code Code) codeInfo {
	if info, ok := codes[code]; ok {
		return info
	}
	return codes[Internal]
}

// Codes returns every code with its SQLSTATE and default hint, for docs and tests.
func Codes() map[Code][2]string {
	out := make(map[Code][2]string, len(codes))
	for c, info := range codes {
		out[c] = [2]string{info.SQLState, info.Hint}
	}
	return out
}
