-- Every type round-trips: stored, read back, and compared in SQL.
-- (bytea literals are read as PostgreSQL reads them, '\xDEADBEEF'; output
-- is PostgreSQL's hex form, and parameters accept both of its forms.)
CREATE TABLE all_types (
    id   integer PRIMARY KEY,
    b    boolean,
    i2   smallint,
    i4   integer,
    i8   bigint,
    n    numeric(12, 3),
    f4   real,
    f8   double precision,
    t    text,
    v    varchar,
    bt   bytea,
    d    date,
    tm   time,
    ts   timestamp,
    tz   timestamptz,
    iv   interval,
    u    uuid,
    j    json,
    ai   integer[],
    tags text[]
);
INSERT INTO all_types VALUES
  (1, true, -32768, 2147483647, -9223372036854775808, 123456789.125, 1.5, 0.1,
   'hello', 'wörld', '\xDEADBEEF'::bytea, '2024-02-29', '13:14:15.5', '2024-02-29 13:14:15.123456',
   '2024-02-29 13:14:15+02', '1 year 2 months 3 days 04:05:06.5', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
   '{"k": [1, 2], "a": "x"}', [1, NULL, 3], ['a b', 'q"uote', '', 'NULL']),
  (2, false, 0, 0, 0, -0.5, -0, 1e300, '', '', '', '0001-01-01', '00:00:00', '1970-01-01 00:00:00',
   '1970-01-01 00:00:00+00', '-1 day -00:00:01', '00000000-0000-0000-0000-000000000000',
   '[]', [], []),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM all_types ORDER BY id;
-- typed NULLs and booleans
SELECT id, b IS NULL AS b_null, t IS NULL AS t_null, t = '' AS t_empty FROM all_types ORDER BY id;
-- floats print the shortest exact form, switching to exponents as PostgreSQL does
SELECT 1e15::double AS big, 1e14::double AS fits, 1.0e-5::double AS small, 0.0001::double AS tiny,
       'Infinity'::double AS inf, '-Infinity'::double AS ninf, 'NaN'::double AS nan, 3.4e38::real AS r;
-- numeric keeps its scale
SELECT 1.50::numeric(5, 2) AS a, -0.001::numeric(6, 3) AS b, 12345678901234567890::hugeint AS c;
-- read back and compare in SQL
SELECT id FROM all_types WHERE bt = '\xDEADBEEF'::blob AND u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AND ai = [1, NULL, 3];
-- nested lists are multi-dimensional arrays
SELECT [[1, 2], [3, 4]] AS matrix;
-- DuckDB-only types are sent as text
SELECT {'x': 1, 'y': 'z'} AS a_struct, 255::utinyint AS small_unsigned;
