// sequelize: sync (CREATE TABLE IF NOT EXISTS with SERIAL, describe), models, associations, transactions.
const { Sequelize, DataTypes } = require('sequelize');

const sequelize = new Sequelize(process.env.VSQL_DB + '/dev', process.env.PGUSER, '', {
  host: process.env.PGHOST, port: +process.env.PGPORT, dialect: 'postgres', logging: false,
});
const Team = sequelize.define('Team', { name: { type: DataTypes.STRING(60), allowNull: false } }, { timestamps: false });
const Player = sequelize.define('Player', {
  nick: { type: DataTypes.STRING, allowNull: false },
  rating: DataTypes.DECIMAL(6, 1),
  joined: DataTypes.DATEONLY,
}, { timestamps: false });
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
  await sequelize.close();
})().catch(async (e) => { console.error(e); await sequelize.close(); process.exit(1); });
