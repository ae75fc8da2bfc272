"""asyncpg: binary protocol, prepared statements, transactions."""
import asyncio
import datetime
import decimal
import os

import asyncpg


async def main():
    db = os.environ["VSQL_DB"]
    conn = await asyncpg.connect(host=os.environ["PGHOST"], port=int(os.environ["PGPORT"]), user=os.environ["PGUSER"], database=db + "/dev")
    print("branch:", await conn.fetchval("SELECT current_database()"))
    await conn.execute("CREATE TABLE readings (id integer PRIMARY KEY, sensor text, value double precision, taken timestamp, ok boolean, amount numeric(8, 2))")
    stmt = await conn.prepare("INSERT INTO readings VALUES ($1, $2, $3, $4, $5, $6)")
    async with conn.transaction():
        await stmt.fetch(1, "a", 1.5, datetime.datetime(2026, 5, 6, 7, 8, 9), True, decimal.Decimal("12.34"))
        await stmt.fetch(2, "b", -0.25, None, False, None)
    try:
        async with conn.transaction():
            await stmt.fetch(3, "c", 0.0, None, None, None)
            raise RuntimeError("undo")
    except RuntimeError:
        pass
    for r in await conn.fetch("SELECT * FROM readings WHERE id > $1 ORDER BY id", 0):
        print("row:", tuple(r.values()))
    print("count:", await conn.fetchval("SELECT count(*) FROM readings"))
    try:
        await conn.execute("INSERT INTO readings (id) VALUES (1)")
    except asyncpg.PostgresError as e:
        print("error:", e.sqlstate)
    print("snapshot:", await conn.fetchval("SELECT snapshot_id FROM vsql_create_snapshot()"))
    await conn.close()


asyncio.run(main())
