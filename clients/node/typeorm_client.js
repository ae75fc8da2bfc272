// typeorm with its defaults: synchronize (reads pg_catalog/information_schema, creates tables), repository round trip, query builder, a jsonb column (saved, read back, queried with @> and ->>).
require('reflect-metadata');
const { DataSource, EntitySchema } = require('typeorm');

const Ticket = new EntitySchema({
  name: 'Ticket',
  tableName: 'tickets',
  columns: {
    id: { type: 'int', primary: true, generated: true },
    title: { type: 'varchar' }, // no length: DuckDB does not keep varchar(n) lengths (docs/sql.md)
    points: { type: 'int', nullable: true },
    cost: { type: 'numeric', precision: 8, scale: 2, nullable: true },
    open: { type: 'boolean', default: true },
    meta: { type: 'jsonb', nullable: true },
  },
});

(async () => {
  const ds = new DataSource({
    type: 'postgres', host: process.env.PGHOST, port: +process.env.PGPORT, username: process.env.PGUSER,
    database: process.env.VSQL_DB + '/dev', entities: [Ticket], synchronize: true, logging: false,
  });
  await ds.initialize();
  const repo = ds.getRepository('Ticket');
  await repo.save([{ title: 'first', points: 3, cost: '12.50', meta: { tags: ['ui', 'bug'], owner: { name: 'ann' } } }, { title: 'second', open: false }]);
  const found = await repo.find({ order: { id: 'ASC' } });
  for (const t of found) console.log('ticket:', JSON.stringify(t));
  const sum = await repo.createQueryBuilder('t').select('SUM(t.points)', 'total').where('t.open = :open', { open: true }).getRawOne();
  console.log('sum:', JSON.stringify(sum));
  const tagged = await repo.createQueryBuilder('t').where('t.meta @> :m', { m: JSON.stringify({ tags: ['bug'] }) }).getMany();
  console.log('tagged:', JSON.stringify(tagged.map((t) => [t.id, t.meta])));
  const owners = await repo.createQueryBuilder('t').select("t.meta->'owner'->>'name'", 'owner').where('t.meta IS NOT NULL').getRawMany();
  console.log('owners:', JSON.stringify(owners));
  const cols = await ds.query("SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'tickets' ORDER BY ordinal_position");
  for (const c of cols) console.log('column:', c.column_name, c.data_type, c.is_nullable);
  await ds.destroy();
  // a second synchronize finds the schema up to date
  const again = new DataSource({
    type: 'postgres', host: process.env.PGHOST, port: +process.env.PGPORT, username: process.env.PGUSER,
    database: process.env.VSQL_DB + '/dev', entities: [Ticket], synchronize: true, logging: false,
  });
  await again.initialize();
  console.log('second sync, rows:', await again.getRepository('Ticket').count());
  // nothing left to change: defaults (open = true) and types read back as TypeORM writes them
  console.log('pending schema changes:', JSON.stringify((await again.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query)));
  await again.destroy();
})().catch((e) => { console.error(e); process.exit(1); });
