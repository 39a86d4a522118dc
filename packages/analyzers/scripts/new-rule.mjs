#!/usr/bin/env node
// Scaffolds a new rule: `npm run new-rule -- <analyzer>/<rule> [--repository]` creates
// packages/analyzers/src/<analyzer>/<rule>/{rule.ts,README.md,rule.test.ts} from templates: a rule
// that runs, a harness test that passes (AnalyzerTester, or RepositoryRuleTester for a repository
// rule), README headings; the meta-test (src/rule-docs.test.ts) refuses the placeholder text until
// the author replaces it. Then it says what to register.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function camel(id) {
  return id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
}

export function ruleTemplates(analyzer, rule, kind) {
  const name = camel(rule);
  const fileRule = `// ${rule}: TODO one sentence on what this rule finds and why.
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';

const options = z.object({}).strict().default({});

export const ${name} = defineRule({
  kind: 'file',
  meta: {
    id: '${rule}',
    description: 'Describe what the rule finds',
    category: 'code_smell',
    severity: 'medium',
    options,
    confidence: 90,
    docs: {
      whyItMatters: 'Explain the cost of the problem to the reader of the issue.',
      suggestedAction: 'Explain the fix in one or two sentences.',
    },
  },
  create(context) {
    return {
      debugger_statement(node) {
        context.report({ node, title: 'Describe this occurrence', description: \`Say what was found in \${context.file.path}.\` });
      },
    };
  },
});
`;
  const repositoryRule = `// ${rule}: TODO one sentence on what this rule finds and why.
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';

const options = z.object({}).strict().default({});

export const ${name} = defineRule({
  kind: 'repository',
  meta: {
    id: '${rule}',
    description: 'Describe what the rule finds',
    category: 'code_smell',
    severity: 'medium',
    options,
    confidence: 90,
    docs: {
      whyItMatters: 'Explain the cost of the problem to the reader of the issue.',
      suggestedAction: 'Explain the fix in one or two sentences.',
    },
  },
  analyze(context) {
    for (const summary of context.summaries) {
      if (summary.lines.code > 400) {
        context.report({ filePath: summary.path, lineStart: 1, title: 'Describe this occurrence', description: \`Say what was found in \${summary.path}.\` });
      }
    }
  },
});
`;
  const fileTest = `import { AnalyzerTester } from '@codehealth/engine/testing';
import { ${camel(analyzer)} } from '../index.js';

new AnalyzerTester(${camel(analyzer)}).run('${rule}', {
  valid: ['const fine = 1;'],
  invalid: [{ code: 'function f() {\\n  debugger;\\n}', findings: [{ line: 2, title: 'Describe this occurrence' }] }],
});
`;
  const repositoryTest = `import { RepositoryRuleTester } from '@codehealth/engine/testing';
import { ${camel(analyzer)} } from '../index.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => \`export const v\${i} = \${i};\`).join('\\n');

new RepositoryRuleTester(${camel(analyzer)}).run('${rule}', {
  valid: [{ files: { 'src/small.ts': lines(10) } }],
  invalid: [{ files: { 'src/small.ts': lines(10), 'src/big.ts': lines(401) }, findings: [{ path: 'src/big.ts', line: 1, title: 'Describe this occurrence' }] }],
});
`;
  const readme = `## What it finds
Describe precisely what the rule reports, with a short example, and its severity rules.

## Why it matters
Explain the cost of the problem: bugs, security, maintenance or reading time.

## How to fix
Show the fix, with a short before/after example when it helps.

## Options
List each option with its type, default and effect, or say that the rule has none.

## When not to use it
Say in which code bases or situations the rule is noise and should be turned off.
`;
  return {
    'rule.ts': kind === 'repository' ? repositoryRule : fileRule,
    'rule.test.ts': kind === 'repository' ? repositoryTest : fileTest,
    'README.md': readme,
  };
}

function main(argv) {
  const [target, ...flags] = argv;
  const [analyzer, rule] = (target ?? '').split('/');
  if (!analyzer || !rule || !KEBAB.test(analyzer) || !KEBAB.test(rule) || flags.some((f) => f !== '--repository')) {
    console.error('usage: npm run new-rule -- <analyzer>/<rule> [--repository]   (kebab-case ids)');
    return 2;
  }
  // CODEHEALTH_SCAFFOLD_ROOT lets the scaffold's own test write somewhere other than src/.
  const base = process.env.CODEHEALTH_SCAFFOLD_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const root = join(base, analyzer);
  const folder = join(root, rule);
  if (existsSync(folder)) {
    console.error(`new-rule: ${folder} already exists`);
    return 2;
  }
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(ruleTemplates(analyzer, rule, flags.includes('--repository') ? 'repository' : 'file'))) {
    writeFileSync(join(folder, file), text);
  }
  console.log(`created ${folder}/{rule.ts,rule.test.ts,README.md}`);
  console.log(
    `next: add ${camel(rule)} (from './${rule}/rule.js') to the rules of ${existsSync(join(root, 'index.ts')) ? `src/${analyzer}/index.ts` : `a new analyzer in src/${analyzer}/index.ts, registered in src/index.ts`}`,
  );
  console.log(
    'then: replace every placeholder (rule.ts header, description, docs; README sections): the docs meta-test refuses them, and checks Options against the options schema',
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
