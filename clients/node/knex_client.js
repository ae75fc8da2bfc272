// knex: schema builder (increments, foreign keys), inserts with returning, transactions, introspection.
const knex = require('knex')({
  client: 'pg',
  connection: { host: process.env.PGHOST, port: +process.env.PGPORT, user: process.env.PGUSER, database: process.env.VSQL_DB + '/dev' },
});

(async () => {
  await knex.schema.createTable('projects', (t) => {
    t.increments('id');
    t.string('name', 80).notNullable();
    t.decimal('budget', 10, 2);
    t.boolean('active').defaultTo(true);
    t.timestamp('created_at', { useTz: true });
  });
  console.log('has table:', await knex.schema.hasTable('projects'), await knex.schema.hasColumn('projects', 'budget'));
  const ids = await knex('projects').insert([{ name: 'alpha', budget: '1000.50', created_at: new Date('2026-01-02T03:04:05Z') }, { name: 'beta' }]).returning('id');
  console.log('ids:', JSON.stringify(ids));
  await knex.transaction(async (trx) => {
    await trx('projects').where({ name: 'beta' }).update({ budget: '7.25' });
  });
  try {
    await knex.transaction(async (trx) => {
      await trx('projects').insert({ name: 'undone' });
      throw new Error('undo');
    });
  } catch (e) { /* rolled back */ }
  const rows = await knex('projects').select('id', 'name', 'budget', 'active', 'created_at').orderBy('id');
  for (const r of rows) console.log('row:', JSON.stringify(r));
  const cols = await knex('projects').columnInfo();
  for (const [name, info] of Object.entries(cols)) console.log('column:', name, info.type, info.nullable, info.defaultValue);
  console.log('count:', JSON.stringify(await knex('projects').count('* as n')));
  await knex.destroy();
})().catch(async (e) => { console.error(e); await knex.destroy(); process.exit(1); });
