"""psycopg 3: server-side parameters, prepared statements, transactions, COPY."""
import decimal
import os

import psycopg

db = os.environ["VSQL_DB"]
with psycopg.connect(dbname=db + "/dev") as conn:
    # psycopg's default: a transaction opens with the first statement, and
    # transaction() blocks inside it are savepoints (ROLLBACK TO on error)
    print("branch:", conn.execute("SELECT current_database(), label FROM seed").fetchall())
    conn.execute("CREATE TABLE events (id bigint PRIMARY KEY, kind text NOT NULL, amount numeric(12, 3), tags varchar[])")
    with conn.transaction():
        for i in range(1, 4):
            conn.execute("INSERT INTO events VALUES (%s, %s, %s, %s)", (i, f"k{i}", decimal.Decimal(i) / 8, [f"t{i}", "x"]), prepare=True)
    try:
        with conn.transaction():
            conn.execute("INSERT INTO events VALUES (%s, %s, NULL, NULL)", (10, "rolled back"))
            raise RuntimeError("undo")
    except RuntimeError:
        pass
    for r in conn.execute("SELECT id, kind, amount, tags FROM events WHERE id >= %s ORDER BY id", (1,)):
        print("row:", r)
    with conn.cursor() as cur:
        with cur.copy("COPY events (id, kind) FROM STDIN") as copy:
            copy.write_row((20, "copied"))
            copy.write_row((21, "copied too"))
    print("count:", conn.execute("SELECT count(*) FROM events").fetchone()[0])

    out = []
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT id, kind FROM events WHERE id >= 20 ORDER BY id) TO STDOUT") as copy:
            for row in copy.rows():
                out.append(row)
    print("copy out:", out)

    conn.commit()  # vsql_* functions run outside a transaction block
    conn.autocommit = True
    print("snapshot:", conn.execute("SELECT snapshot_id FROM vsql_create_snapshot()").fetchone()[0])
