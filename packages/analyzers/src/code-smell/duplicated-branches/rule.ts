// Flags if/else-if chains and switch statements whose branches repeat each other: the same code in
// two branches (SonarJS no-duplicated-branches, S1871), or a condition that an earlier one in the
// chain already covers (no-identical-conditions, S1862).
import { defineRule, type SyntaxNode, enclosingSymbol } from '@codehealth/engine/kit';
import { findCoveredCondition } from './conditions.js';
import { listKey, tokensOf, unwrap } from './equivalence.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

/** A condition with a call, assignment or update may change between two evaluations. */
const EFFECT_TYPES = ['call_expression', 'new_expression', 'await_expression', 'assignment_expression', 'augmented_assignment_expression', 'update_expression'];
const SIDE_EFFECT_CONFIDENCE = 70;

function confidenceFor(condition: SyntaxNode): number {
  return EFFECT_TYPES.includes(condition.type) || condition.descendantsOfType(EFFECT_TYPES).length > 0 ? SIDE_EFFECT_CONFIDENCE : 95;
}

/** Conditions quoted in titles are cut to this many characters. */
const MAX_QUOTE = 60;

function snippet(node: SyntaxNode): string {
  const text = node.text.replace(/\s+/g, ' ');
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - '...'.length)}...` : text;
}

/** The branches of a chain: each consequence, then the final `else` body if there is one. */
function ifBranches(head: SyntaxNode): { branches: SyntaxNode[]; endsWithElse: boolean } {
  const branches: SyntaxNode[] = [];
  let statement: SyntaxNode | null = head;
  while (statement) {
    const consequence = statement.childForFieldName('consequence');
    if (consequence) branches.push(consequence);
    const body: SyntaxNode | undefined = statement.childForFieldName('alternative')?.namedChildren.find((child) => child.type !== 'comment');
    if (!body) return { branches, endsWithElse: false };
    if (body.type !== 'if_statement') return { branches: [...branches, body], endsWithElse: true };
    statement = body;
  }
  return { branches, endsWithElse: false };
}

/** A clause's statements, a lone block opened up, without a trailing `break`. */
function clauseStatements(clause: SyntaxNode): SyntaxNode[] {
  let statements = clause.childrenForFieldName('body').filter((node) => node.type !== 'comment');
  if (statements.length === 1 && statements[0].type === 'statement_block') {
    statements = statements[0].namedChildren.filter((node) => node.type !== 'comment');
  }
  return statements.length > 0 && statements[statements.length - 1].type === 'break_statement' ? statements.slice(0, -1) : statements;
}

export const duplicatedBranches = defineRule({
  kind: 'file',
  meta: {
    id: 'duplicated-branches',
    description: 'Branches of an if/else-if chain or a switch with the same code, and conditions an earlier one covers',
    category: 'code_smell',
    severity: 'medium',
    roles: MAINTAINED_ROLES,
    confidence: 90,
    docs: {
      whyItMatters:
        'Two branches with the same code are either a copy-paste mistake (one of them should do something else) or ' +
        'a needless split that a reader has to compare character by character. A condition that an earlier one ' +
        'covers can never select its branch: that code is dead, and usually a typo in the condition.',
      suggestedAction:
        'Fix the branch or condition that was meant to differ; if the duplication is intended, merge the branches ' +
        '(`if (a || b)`, or adjacent `case` labels).',
    },
  },
  create(context) {
    if (isMinified(context.source)) return {};
    const { source } = context;

    const reportBranch = (branch: SyntaxNode, original: SyntaxNode, kind: 'branch' | 'case') =>
      context.report({
        node: branch,
        title: `Duplicated ${kind}: same code as the ${kind} on line ${original.startPosition.row + 1}`,
        description:
          `This ${kind}'s code is the same as the ${kind} starting on line ${original.startPosition.row + 1}, ` +
          'token for token (whitespace and comments aside).',
        // A note, not a defect: the panel's reviewers agreed with 2 of 11 (docs/precision.md).
        severity: 'info',
        symbol: enclosingSymbol(branch),
        data: { originalLine: original.startPosition.row + 1 },
      });

    /** SonarJS reports small branches only when every branch is the same: a branch must span lines, braces aside. */
    const hasRequiredSize = (nodes: readonly SyntaxNode[]): boolean => {
      if (nodes.length === 0) return false;
      const first = tokensOf(nodes[0], source);
      const last = nodes.length === 1 ? first : tokensOf(nodes[nodes.length - 1], source);
      return first.start !== -1 && last.end !== -1 && source.slice(first.start, last.end).includes('\n');
    };

    const reportCoveredCondition = (node: SyntaxNode): void => {
      const covering = findCoveredCondition(node, source);
      if (!covering) return;
      const line = covering.by.startPosition.row + 1;
      const exact = covering.exact;
      context.report({
        node: covering.condition,
        title: `Condition \`${snippet(covering.condition)}\` is ${exact ? 'the same as' : 'covered by'} the condition on line ${line}`,
        description:
          `An earlier condition of this if/else-if chain (\`${snippet(covering.by)}\`, line ${line}) is true whenever this one is, ` +
          'so this branch can never run.',
        severity: 'medium',
        confidence: confidenceFor(covering.condition),
        symbol: enclosingSymbol(node),
        data: { originalLine: line },
      });
    };

    const onIf = (node: SyntaxNode): void => {
      if (node.parent?.type === 'else_clause') {
        reportCoveredCondition(node);
        return;
      }
      const { branches, endsWithElse } = ifBranches(node);
      // Most ifs have one branch: nothing to compare, and no tokens to read.
      if (branches.length < 2) return;
      const keys = branches.map((branch) => tokensOf(branch, source).key);
      if (!endsWithElse && keys.every((key) => key === keys[0])) {
        for (let i = 1; i < branches.length; i++) reportBranch(branches[i], branches[i - 1], 'branch');
        return;
      }
      for (let i = 1; i < branches.length; i++) {
        if (!hasRequiredSize([branches[i]])) continue;
        const j = keys.indexOf(keys[i]);
        if (j < i) reportBranch(branches[i], branches[j], 'branch');
      }
    };

    const onSwitch = (node: SyntaxNode): void => {
      const clauses = node.childForFieldName('body')?.namedChildren.filter((c) => c.type === 'switch_case' || c.type === 'switch_default') ?? [];
      const tests = new Map<string, SyntaxNode>();
      for (const clause of clauses) {
        const value = clause.childForFieldName('value');
        if (!value) continue;
        const key = tokensOf(unwrap(value), source).key;
        const first = tests.get(key);
        if (!first) {
          tests.set(key, value);
          continue;
        }
        context.report({
          node: value,
          title: `Case \`${snippet(value)}\` repeats the case on line ${first.startPosition.row + 1}`,
          description: `The same case value appears on line ${first.startPosition.row + 1}; the switch never reaches this clause.`,
          severity: 'medium',
          confidence: confidenceFor(value),
          symbol: enclosingSymbol(node),
          data: { originalLine: first.startPosition.row + 1 },
        });
      }
      const bodies = clauses.map(clauseStatements);
      const keys = bodies.map((statements) => listKey(statements, source));
      const endsWithDefault = clauses.some((clause) => clause.type === 'switch_default');
      const nonEmpty = clauses.map((_, i) => i).filter((i) => bodies[i].length > 0);
      if (!endsWithDefault && nonEmpty.length > 1 && nonEmpty.every((i) => keys[i] === keys[nonEmpty[0]])) {
        for (let k = 1; k < nonEmpty.length; k++) reportBranch(clauses[nonEmpty[k]], clauses[nonEmpty[k - 1]], 'case');
        return;
      }
      for (let i = 1; i < clauses.length; i++) {
        if (!hasRequiredSize(bodies[i])) continue;
        const j = keys.indexOf(keys[i]);
        if (j < i) reportBranch(clauses[i], clauses[j], 'case');
      }
    };

    return { if_statement: onIf, switch_statement: onSwitch };
  },
});
