import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('sql-injection', {
  valid: [
    {
      code: "import { Database } from './database.js';\nexport async function clearOldData(days) {\n  await R.exec('DELETE FROM heartbeat WHERE time < ' + Database.sqlHourOffset(), [days * -24]);\n}",
      filename: 'src/jobs/clear.js',
      name: 'a static method called without arguments: a class-level fragment',
    },
    {
      code: "class Database {\n  static hourOffset() {\n    if (isSqlite) {\n      return \"DATETIME('now', ? || ' hours')\";\n    }\n    return 'DATE_ADD(UTC_TIMESTAMP(), INTERVAL ? HOUR)';\n  }\n  static async clear(days) {\n    await R.exec('DELETE FROM heartbeat WHERE time < ' + Database.hourOffset(), [days * -24]);\n  }\n}",
      filename: 'src/db.js',
      name: 'a same-file method that returns only literal fragments',
    },
    { code: "await pool.query('SELECT * FROM users WHERE id = $1', [id]);", name: 'a parameterised query' },
    { code: 'const rows = await sql`SELECT * FROM users WHERE id = ${id}`;', name: 'a postgres.js tagged template' },
    { code: 'await prisma.$queryRaw`SELECT * FROM "User" WHERE email = ${email}`;', name: "Prisma's tagged $queryRaw" },
    { code: 'await db.query(sql`SELECT * FROM t WHERE id = ${id}`);', name: 'a tagged fragment passed to query' },
    { code: "const TABLE = 'users';\nawait db.query(`SELECT * FROM ${TABLE} WHERE id = ?`, [id]);", name: 'a constant table name' },
    { code: 'await db.query(`SELECT * FROM users WHERE id IN (${ids.map(() => "?").join(", ")})`, ids);', name: 'generated placeholders' },
    { code: 'await db.query(`SELECT * FROM users LIMIT ${Number(limit)} OFFSET ${page * size}`);', name: 'numeric conversions and arithmetic' },
    { code: 'const result = await api.query(`{ user(id: ${id}) { name } }`);', name: 'GraphQL is not SQL' },
    { code: 'await cache.get(`select:${id}`);\nlogger.execute(`Selected ${n} rows from ${table}`);', name: 'text that is not a statement' },
    { code: 'function run(text: string) { return pool.query(text); }', name: 'SQL that the rule cannot see' },
    { code: "await knex.raw('select * from users where id = ?', [id]);", name: 'knex.raw with bindings' },
  ],
  invalid: [
    {
      code: "import { Database } from './database.js';\nexport async function clear(name) {\n  await R.exec('DELETE FROM heartbeat WHERE ' + Database.column(name));\n}",
      filename: 'src/jobs/clear.js',
      name: 'a static method handed a value',
      findings: [{ line: 3 }],
    },
    {
      code: "class Database {\n  static column(name) {\n    return name;\n  }\n  static async clear(name) {\n    await R.exec('DELETE FROM heartbeat WHERE ' + Database.column(name) + ' < 1');\n  }\n}",
      filename: 'src/db.js',
      name: 'a same-file method that returns a parameter',
      findings: [{ line: 6 }],
    },
    {
      code: 'export async function findUser(id: string) {\n  return pool.query(`SELECT * FROM users WHERE id = ${id}`);\n}',
      findings: [
        {
          line: 2,
          severity: 'high',
          symbol: 'findUser',
          title: 'SQL built from `id` passed to pool.query() in findUser',
          data: { builtBy: 'template', requestInput: false },
        },
      ],
    },
    {
      code: 'router.get(\'/users\', async (req, res) => {\n  const rows = await db.query("SELECT * FROM users WHERE name = \'" + req.query.name + "\'");\n  res.json(rows);\n});',
      name: 'request input is critical',
      findings: [{ line: 2, severity: 'critical', data: { builtBy: 'concatenation', requestInput: true } }],
    },
    {
      code: 'async function search(term: string, sort: string) {\n  let sql = "SELECT id FROM posts WHERE published = true";\n  sql += ` ORDER BY ${sort}`;\n  return sequelize.query(sql);\n}',
      name: 'a let variable extended with +=',
      findings: [{ line: 4, severity: 'high', title: 'SQL built from `sort` passed to sequelize.query() in search' }],
    },
    {
      code: 'await prisma.$queryRawUnsafe(`DELETE FROM sessions WHERE user_id = ${userId}`);\nawait knex.raw("UPDATE accounts SET balance = " + amount);',
      name: 'Prisma unsafe and knex.raw',
      findings: [
        { line: 1, data: { method: '$queryRawUnsafe' } },
        { line: 2, data: { method: 'raw', builtBy: 'concatenation' } },
      ],
    },
    {
      code: 'await client.query({ text: `INSERT INTO logs (msg) VALUES (\'${msg}\')` });\ndb.prepare(`select * from t where name = "${name}"`).all();',
      name: "pg's query config object and better-sqlite3's prepare",
      findings: [
        { line: 1, severity: 'high' },
        { line: 2, severity: 'high', data: { method: 'prepare' } },
      ],
    },
    {
      code: 'const q = `SELECT * FROM orders WHERE customer = ${customerId}`;\nawait query(q);',
      name: 'a free query function through a constant',
      findings: [{ line: 2, data: { method: 'query', builtBy: 'template' } }],
    },
  ],
});

describe('sql-injection description', () => {
  it('names the variable the SQL was traced through', () => {
    const [finding] = runRule(security, 'sql-injection', { code: 'const q = `SELECT * FROM t WHERE a = ${a}`;\nawait db.query(q);' });
    expect(finding.description).toContain('a template literal that splices in `a` (through the variable `q`)');
    expect(finding.confidence).toBe(80);
  });
});
