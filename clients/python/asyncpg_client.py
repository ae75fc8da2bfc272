"""asyncpg with its defaults: binary protocol, prepared statements, transactions, json and jsonb with its default codecs (text in, text out)."""
import asyncio
import datetime
import decimal
import json
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
    await conn.execute("CREATE TABLE docs (id integer PRIMARY KEY, body jsonb, raw json)")
    await conn.execute("""INSERT INTO docs VALUES (1, '{"kind": "note", "tags": ["a", "b"], "n": 2}'::jsonb, '{"x": 1}'::json)""")
    await conn.execute("INSERT INTO docs VALUES ($1, $2, $3)", 2, json.dumps({"kind": "task", "n": 5}), json.dumps([1, 2]))
    await conn.execute("INSERT INTO docs VALUES ($1, $2::jsonb, NULL)", 3, json.dumps({"kind": "note", "n": None}))
    for r in await conn.fetch("SELECT id, body, raw FROM docs ORDER BY id"):
        print("doc:", r["id"], json.loads(r["body"]), None if r["raw"] is None else json.loads(r["raw"]))
    print("notes:", [r["id"] for r in await conn.fetch("SELECT id FROM docs WHERE body @> $1::jsonb ORDER BY id", json.dumps({"kind": "note"}))])
    print("kinds:", [tuple(r.values()) for r in await conn.fetch("SELECT id, body->>'kind', (body->'n')::text FROM docs WHERE body ? 'n' ORDER BY id")])
    print("types:", [(a.name, a.type.name) for a in (await conn.prepare("SELECT body, raw FROM docs")).get_attributes()])
    print("snapshot:", await conn.fetchval("SELECT snapshot_id FROM vsql_create_snapshot()"))
    await conn.close()


asyncio.run(main())
