// node-postgres: parameters, transactions, types, a db/branch dbname.
const { Client } = require('pg');

(async () => {
  const client = new Client({ database: process.env.VSQL_DB + '/dev' });
  await client.connect();
  console.log('branch:', (await client.query('SELECT current_database() AS db, label FROM seed')).rows);
  await client.query('CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL, score real, created date, meta json, raw bytea)');
  await client.query('BEGIN');
  await client.query('INSERT INTO notes VALUES ($1, $2, $3, $4, $5, $6)', [1, 'first', 0.5, '2026-02-03', JSON.stringify({ a: 1 }), Buffer.from([0, 1, 255])]);
  await client.query({ name: 'ins', text: 'INSERT INTO notes (id, body) VALUES ($1, $2)', values: [2, 'second'] });
  await client.query('COMMIT');
  await client.query('BEGIN');
  await client.query({ name: 'ins', text: 'INSERT INTO notes (id, body) VALUES ($1, $2)', values: [3, 'undone'] });
  await client.query('ROLLBACK');
  const res = await client.query('SELECT id, body, score, created::text AS created, meta, raw FROM notes WHERE id > $1 ORDER BY id', [0]);
  console.log('fields:', res.fields.map((f) => f.name + ':' + f.dataTypeID).join(' '));
  for (const r of res.rows) console.log('row:', JSON.stringify(r));
  try {
    await client.query('INSERT INTO notes (id, body) VALUES (1, $1)', ['dup']);
  } catch (e) {
    console.log('error:', e.code);
  }
  console.log('snapshot:', (await client.query('SELECT snapshot_id FROM vsql_create_snapshot()')).rows[0].snapshot_id);
  await client.end();
})().catch((e) => { console.error(e); process.exit(1); });
