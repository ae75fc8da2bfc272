"""psycopg2: parameters, transactions, types, introspection, a named (server-side) cursor, a db/branch dbname."""
import datetime
import decimal
import os

import psycopg2

db = os.environ["VSQL_DB"]
conn = psycopg2.connect(dbname=db + "/dev")  # PGHOST, PGPORT, PGUSER from the environment
cur = conn.cursor()
cur.execute("SELECT current_database(), label FROM seed")
print("branch:", cur.fetchall())
cur.execute("""CREATE TABLE items (
    id integer PRIMARY KEY,
    name varchar NOT NULL,
    price numeric(10, 2),
    added timestamptz,
    active boolean,
    payload bytea
)""")
rows = [
    (1, "apple", decimal.Decimal("1.25"), datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), True, b"\x00\x01"),
    (2, "pear's", None, None, False, None),
]
cur.executemany("INSERT INTO items VALUES (%s, %s, %s, %s, %s, %s)", rows)
conn.commit()
cur.execute("SELECT id, name, price, added, active, payload FROM items ORDER BY id")
for r in cur.fetchall():
    print("row:", r[0], repr(r[1]), repr(r[2]), r[3].isoformat() if r[3] else None, r[4], bytes(r[5]) if r[5] is not None else None)
# a rolled-back insert leaves nothing
cur.execute("INSERT INTO items (id, name) VALUES (%(id)s, %(name)s)", {"id": 3, "name": "gone"})
conn.rollback()
cur.execute("SELECT count(*) FROM items")
print("after rollback:", cur.fetchone()[0])
# an error aborts the transaction until rollback
try:
    cur.execute("INSERT INTO items (id, name) VALUES (1, 'duplicate')")
except psycopg2.Error as e:
    print("error:", e.pgcode)
    conn.rollback()
cur.execute("""SELECT column_name, data_type, is_nullable FROM information_schema.columns
               WHERE table_name = 'items' ORDER BY ordinal_position""")
for r in cur.fetchall():
    print("column:", *r)
conn.commit()
# a named (server-side) cursor, read with its default itersize of 2000
with conn.cursor(name="big_read") as named:
    named.execute("SELECT i, i * 2 FROM generate_series(1, 4500) i ORDER BY i")
    total, last = 0, None
    for row in named:
        total, last = total + 1, row
print("named cursor:", total, last)
conn.commit()
# vsql_* functions run in autocommit
conn.autocommit = True
cur.execute("SELECT snapshot_id FROM vsql_create_snapshot()")
print("snapshot:", cur.fetchone()[0])
conn.close()
