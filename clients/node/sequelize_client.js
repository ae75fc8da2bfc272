// sequelize with its defaults (timestamps on: createdAt/updatedAt timestamptz parameters like '2026-12-02 21:55:36.153 +00:00'): sync (CREATE TABLE IF NOT EXISTS with SERIAL, describe), models, associations, transactions, update.
const { Sequelize, DataTypes } = require('sequelize');

const sequelize = new Sequelize(process.env.VSQL_DB + '/dev', process.env.PGUSER, '', {
  host: process.env.PGHOST, port: +process.env.PGPORT, dialect: 'postgres', logging: false,
});
const Team = sequelize.define('Team', { name: { type: DataTypes.STRING(60), allowNull: false } });
const Player = sequelize.define('Player', {
  nick: { type: DataTypes.STRING, allowNull: false },
  rating: DataTypes.DECIMAL(6, 1),
  joined: DataTypes.DATEONLY,
});
Team.hasMany(Player);
Player.belongsTo(Team);

(async () => {
  await sequelize.sync();
  const qi = sequelize.getQueryInterface();
  console.log('tables:', JSON.stringify((await qi.showAllTables()).sort()));
  const desc = await qi.describeTable('Players');
  for (const [name, d] of Object.entries(desc)) console.log('column:', name, d.type, d.allowNull, d.primaryKey);
  const reds = await Team.create({ name: 'reds' });
  await Player.bulkCreate([{ nick: 'ann', rating: '1500.5', joined: '2026-04-05', TeamId: reds.id }, { nick: 'bob', TeamId: reds.id }]);
  try {
    await sequelize.transaction(async (t) => {
      await Player.create({ nick: 'undone', TeamId: reds.id }, { transaction: t });
      throw new Error('undo');
    });
  } catch (e) { /* rolled back */ }
  const team = await Team.findOne({ where: { name: 'reds' }, include: Player, order: [[Player, 'id', 'ASC']] });
  console.log('team:', team.id, team.name, JSON.stringify(team.Players.map((p) => [p.id, p.nick, p.rating, p.joined])));
  console.log('count:', await Player.count());
  // The stored timestamps are the ones Sequelize sent, read back as Dates.
  const before = new Date(Date.now() - 60000);
  const ann = await Player.findOne({ where: { nick: 'ann' } });
  console.log('timestamps:', ann.createdAt instanceof Date && ann.createdAt > before && ann.createdAt <= new Date(), ann.updatedAt.getTime() === ann.createdAt.getTime());
  await new Promise((r) => setTimeout(r, 20));
  ann.rating = '1600.0';
  await ann.save();
  const saved = await Player.findOne({ where: { nick: 'ann', createdAt: { [require('sequelize').Op.lt]: new Date() } } });
  console.log('updated:', saved.rating, saved.updatedAt > saved.createdAt);
  await sequelize.close();
})().catch(async (e) => { console.error(e); await sequelize.close(); process.exit(1); });
