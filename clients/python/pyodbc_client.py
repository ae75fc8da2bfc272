"""pyodbc through psqlODBC (DSN from ODBCSYSINI/ODBCINI): parameters, transactions, catalog calls (columns, foreign keys)."""
import decimal
import os

import pyodbc

conn = pyodbc.connect("DSN=vsql;Database=" + os.environ["VSQL_DB"] + "/dev", autocommit=False)
cur = conn.cursor()
cur.execute("SELECT current_database(), label FROM seed")
print("branch:", tuple(cur.fetchone()))
cur.execute("CREATE TABLE parts (id integer PRIMARY KEY, name varchar(30) NOT NULL, weight numeric(6, 2), fragile boolean)")
cur.executemany("INSERT INTO parts VALUES (?, ?, ?, ?)", [(1, "bolt", decimal.Decimal("0.05"), False), (2, "lens", decimal.Decimal("1.20"), True)])
conn.commit()
cur.execute("INSERT INTO parts VALUES (?, ?, NULL, NULL)", 3, "undone")
conn.rollback()
for r in cur.execute("SELECT id, name, weight, fragile FROM parts WHERE id > ? ORDER BY id", 0).fetchall():
    print("row:", tuple(r))
print("columns:", [(d[0], d[1].__name__) for d in cur.description])
cols = [(c.column_name, c.type_name, c.nullable) for c in cur.columns(table="parts")]
print("catalog columns:", cols)
cur.execute("CREATE TABLE shipments (id integer PRIMARY KEY, part_id integer REFERENCES parts(id))")
conn.commit()
fks = [(r.pktable_name, r.pkcolumn_name, r.fktable_name, r.fkcolumn_name, r.key_seq, r.fk_name) for r in cur.foreignKeys(foreignTable="shipments")]
print("foreign keys:", fks)
conn.close()
