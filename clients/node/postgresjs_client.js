// postgres.js: Parse/Describe/Flush before Bind, tagged-template parameters, transactions.
const postgres = require('postgres');

(async () => {
  const sql = postgres({ database: process.env.VSQL_DB + '/dev', onnotice: () => {} });
  console.log('branch:', JSON.stringify(await sql`SELECT current_database() AS db, label FROM seed`));
  await sql`CREATE TABLE people (id integer PRIMARY KEY, name text NOT NULL, born date, height numeric(4, 2))`;
  await sql.begin(async (tx) => {
    await tx`INSERT INTO people VALUES (${1}, ${'Ada'}, ${'1815-12-10'}, ${'1.65'})`;
    await tx`INSERT INTO people VALUES (${2}, ${'Alan'}, ${null}, ${null})`;
  });
  try {
    await sql.begin(async (tx) => {
      await tx`INSERT INTO people VALUES (${3}, ${'undone'}, ${null}, ${null})`;
      throw new Error('undo');
    });
  } catch (e) { /* rolled back */ }
  const rows = await sql`SELECT id, name, born::text AS born, height FROM people WHERE id >= ${1} ORDER BY id`;
  for (const r of rows) console.log('row:', JSON.stringify(r));
  const [{ count }] = await sql`SELECT count(*)::int AS count FROM people`;
  console.log('count:', count);
  console.log('snapshot:', (await sql`SELECT snapshot_id FROM vsql_create_snapshot()`)[0].snapshot_id);
  await sql.end();
})().catch((e) => { console.error(e); process.exit(1); });
