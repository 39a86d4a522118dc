// Flags SQL text built by concatenation or template substitution and handed to a query-like call.
// Tagged templates (sql`…`, Prisma's $queryRaw`…`) pass values apart from the text and are safe.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { callOfCallee, nodesAtMatches } from '../shared/candidates.js';
import { placeOf, quote } from '../shared/place.js';
import { mentionsRequestInput } from '../shared/request-input.js';
import { describeShape, shapeOf } from '../shared/string-shape.js';
import { argumentsOf, calleeOf, objectProperty, unwrap } from '../shared/syntax.js';

const options = z.object({}).strict().default({});

/** Methods of drivers, query builders and ORMs that take SQL text (pg, mysql2, sqlite, knex, Sequelize, TypeORM, Prisma, postgres.js). */
const SQL_METHODS = new Set([
  'query',
  'execute',
  'exec',
  'raw',
  'prepare',
  'run',
  'all',
  'get',
  'each',
  'unsafe',
  '$queryRawUnsafe',
  '$executeRawUnsafe',
  'queryRawUnsafe',
  'executeRawUnsafe',
  'whereRaw',
  'orWhereRaw',
  'havingRaw',
  'orHavingRaw',
  'orderByRaw',
  'groupByRaw',
  'joinRaw',
  'fromRaw',
  'selectRaw',
]);
/** Free functions commonly wrapping a driver's query. */
const SQL_FUNCTIONS = new Set(['query', 'execute', 'executeQuery', 'runQuery', 'rawQuery', 'queryRaw', 'sqlQuery', 'dbQuery']);
/** Text that reads as a SQL statement or clause, not just an English word. */
const SQL_TEXT =
  /\b(?:select\s[\s\S]*?\bfrom\s|insert\s+into\s|update\s+[\w."`[\]]+\s+set\s|delete\s+from\s|merge\s+into\s|(?:create|drop|alter|truncate)\s+(?:table|index|view|schema|database)\b|where\s+[\w."`]+\s*(?:=|<|>|!=|\blike\b|\bin\b|\bis\b)|order\s+by\s|group\s+by\s|values\s*\()/i;
/** Calls worth a look in a file that contains SQL; the tree is consulted only at these matches. */
const CANDIDATE = new RegExp(`(?<![\\w$])(?:${[...SQL_METHODS, ...SQL_FUNCTIONS].map((name) => name.replace('$', '\\$')).join('|')})\\s*\\(`, 'g');

function sqlArgument(call: SyntaxNode): SyntaxNode | undefined {
  const first = argumentsOf(call)[0];
  if (!first) return undefined;
  const arg = unwrap(first);
  // pg's `client.query({ text, values })` and mysql's `{ sql, values }`.
  if (arg.type === 'object') return objectProperty(arg, 'text') ?? objectProperty(arg, 'sql') ?? objectProperty(arg, 'query');
  return arg;
}

export const sqlInjection = defineRule({
  kind: 'file',
  meta: {
    id: 'sql-injection',
    description: 'SQL built by concatenation or template substitution and passed to a query call',
    category: 'security',
    severity: 'high',
    options,
    confidence: 80,
    docs: {
      whyItMatters:
        'A value spliced into SQL text becomes part of the statement: a quote or keyword in it changes what the ' +
        "database runs, so input can read other users' rows, bypass a login or drop tables. Escaping by hand is " +
        'easy to get wrong and is forgotten on the next edit.',
      suggestedAction:
        "Keep the SQL text constant and pass values as parameters (`pool.query('… WHERE id = $1', [id])`, " +
        "`knex.raw('… = ?', [v])`), or use a tagged template that parameterises (`sql`… ${id}``, Prisma " +
        '`$queryRaw`). Table and column names must come from an allow-list, never from input.',
    },
  },
  create(context) {
    if (!SQL_TEXT.test(context.source)) return {};
    const check = (call: SyntaxNode) => {
      const callee = calleeOf(call);
      if (!callee || !(callee.object ? SQL_METHODS.has(callee.name) : SQL_FUNCTIONS.has(callee.name))) return;
      const arg = sqlArgument(call);
      if (!arg) return;
      const shape = shapeOf(arg);
      if (shape.dynamicParts.length === 0 || !SQL_TEXT.test(shape.staticText)) return;
      const fromRequest = mentionsRequestInput(arg) || shape.dynamicParts.some(mentionsRequestInput);
      const place = placeOf(call, context.file.path);
      const target = callee.object ? `${callee.object.text.length > 30 ? '…' : callee.object.text}.${callee.name}()` : `${callee.name}()`;
      context.report({
        node: call,
        title: `SQL built from ${quote(shape.dynamicParts[0], 30)} passed to ${target} in ${place.label}`,
        description:
          `${quote(call, 80)} sends SQL text made from ${describeShape(shape)}${fromRequest ? ', which includes request input' : ''}. ` +
          'Quotes or keywords in that value change the statement the database runs.',
        severity: fromRequest ? 'critical' : 'high',
        confidence: fromRequest ? 90 : 80,
        symbol: place.symbol,
        data: { method: callee.name, builtBy: shape.builtBy, requestInput: fromRequest },
      });
    };
    return { program: (root) => nodesAtMatches(root, context.source, CANDIDATE, callOfCallee).forEach(check) };
  },
});
