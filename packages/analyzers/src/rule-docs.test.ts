// ESLint's rule: no rule without a README with the fixed headings, a test file and a registry entry.
// The README says something of its own (not the scaffold's placeholders) and its Options section
// names every key of the rule's options schema, or says truthfully that there is none.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Rule } from '@codehealth/engine';
import { ruleTemplates } from '../scripts/new-rule.mjs';
import plugin from './index.js';

const src = dirname(fileURLToPath(import.meta.url));
const HEADINGS = ['## What it finds', '## Why it matters', '## How to fix', '## Options', '## When not to use it'];
/** Folders inside an analyzer's folder that hold shared code, not a rule. */
const NOT_RULES = new Set(['shared', 'fixtures']);

/** The sections of a README by heading. */
function sections(readme: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const heading of HEADINGS) out.set(heading, (readme.split(heading)[1] ?? '').split('\n## ')[0].trim());
  return out;
}

/** The scaffold's placeholder lines (README, description, docs), whichever rule kind it made. */
const PLACEHOLDERS: string[] = (() => {
  const lines = new Set<string>();
  for (const kind of ['file', 'repository'] as const) {
    const templates = ruleTemplates('probe', 'probe-rule', kind) as Record<string, string>;
    for (const body of sections(templates['README.md']).values()) lines.add(body);
    for (const [, text] of templates['rule.ts'].matchAll(/(?:description|whyItMatters|suggestedAction): '([^']+)'/g)) lines.add(text);
  }
  return [...lines];
})();

interface SchemaNode {
  _zod?: { def: { type: string; innerType?: SchemaNode; in?: SchemaNode; shape?: Record<string, unknown> } };
}

/** The keys of a rule's options schema: its object under defaults, optionals and pipes. */
function optionKeys(schema: unknown): string[] {
  let node = schema as SchemaNode | undefined;
  for (let depth = 0; node?._zod && depth < 10; depth++) {
    const def = node._zod.def;
    if (def.type === 'object') return Object.keys(def.shape ?? {});
    node = def.innerType ?? def.in;
  }
  return [];
}

/** What is wrong with a README's Options section for a rule whose schema has these keys. */
function optionsProblem(body: string, keys: readonly string[]): string | undefined {
  const saysNone = /^(none\b|(this|the) rule (has|takes) no options|no options)/i.test(body);
  if (keys.length === 0) return saysNone ? undefined : 'the rule has no options: say so ("None." or "This rule has no options.")';
  if (saysNone) return `the section says there are no options, but the schema has ${keys.map((k) => `\`${k}\``).join(', ')}`;
  const missing = keys.filter((key) => !body.includes(`\`${key}\``));
  return missing.length > 0 ? `options of the schema not documented: ${missing.map((k) => `\`${k}\``).join(', ')}` : undefined;
}

describe('the docs checks', () => {
  it('find the keys of an options schema under defaults and pipes', async () => {
    const { z } = await import('zod');
    expect(
      optionKeys(
        z
          .object({ max: z.number().default(1), min: z.number() })
          .strict()
          .default({ max: 1, min: 0 }),
      ),
    ).toEqual(['max', 'min']);
    expect(optionKeys(z.object({ a: z.string() }).transform((o) => o))).toEqual(['a']);
    expect(optionKeys(z.object({}).strict().prefault({}))).toEqual([]);
    expect(optionKeys(undefined)).toEqual([]);
  });

  it('accept a truthful "None." and refuse a section that hides or invents options', () => {
    expect(optionsProblem('None.', [])).toBeUndefined();
    expect(optionsProblem('This rule has no options. Its severity can be set.', [])).toBeUndefined();
    expect(optionsProblem('List each option with its type, default and effect, or say that the rule has none.', [])).toMatch(/say so/);
    expect(optionsProblem('None.', ['max'])).toMatch(/schema has `max`/);
    expect(optionsProblem('| `max` | integer | `4` | deepest level |', ['max', 'min'])).toBe('options of the schema not documented: `min`');
    expect(optionsProblem('| `max` | integer | `4` | deepest level |', ['max'])).toBeUndefined();
  });

  it('know the placeholder text of the scaffold, which no real rule may keep', () => {
    expect(PLACEHOLDERS).toContain('Describe precisely what the rule reports, with a short example, and its severity rules.');
    expect(PLACEHOLDERS).toContain('Describe what the rule finds');
    expect(PLACEHOLDERS.length).toBeGreaterThanOrEqual(7);
  });
});

describe('every built-in rule is documented, tested and registered', () => {
  it('every analyzer folder is a registered analyzer', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_RULES.has(entry.name))
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(plugin.analyzers.map((a) => a.id).sort());
  });

  for (const analyzer of plugin.analyzers) {
    const folder = join(src, analyzer.id);
    const registered = analyzer.rules.map((rule) => rule.meta.id).sort();

    it(`${analyzer.id}: rule folders and registered rules are the same set`, () => {
      const folders = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !NOT_RULES.has(entry.name))
        .map((entry) => entry.name)
        .sort();
      expect(folders).toEqual(registered);
    });

    for (const id of registered) {
      it(`${analyzer.id}/${id} has rule.ts, rule.test.ts and a README with exactly the fixed headings`, () => {
        expect(existsSync(join(folder, id, 'rule.ts'))).toBe(true);
        expect(existsSync(join(folder, id, 'rule.test.ts'))).toBe(true);
        const readme = readFileSync(join(folder, id, 'README.md'), 'utf8');
        const headings = readme.split('\n').filter((line) => /^#{1,6} /.test(line));
        expect(headings).toEqual(HEADINGS);
        for (const [heading, body] of sections(readme)) {
          // A truthful "None." is a whole Options section; the others say more than a phrase.
          if (heading !== '## Options') expect(body.length, `${id}: "${heading}" is empty`).toBeGreaterThan(40);
        }
        const rule = analyzer.rules.find((r) => r.meta.id === id) as Rule;
        expect(optionsProblem(sections(readme).get('## Options') ?? '', optionKeys(rule.meta.options)), `${id}: README Options`).toBeUndefined();
      });

      it(`${analyzer.id}/${id} says something of its own: none of the scaffold's placeholder text`, () => {
        const rule = analyzer.rules.find((r) => r.meta.id === id) as Rule;
        const texts = [
          readFileSync(join(folder, id, 'README.md'), 'utf8'),
          rule.meta.description,
          rule.meta.docs?.whyItMatters ?? '',
          rule.meta.docs?.suggestedAction ?? '',
        ];
        const left = PLACEHOLDERS.filter((placeholder) => texts.some((text) => text.includes(placeholder)));
        expect(left, `${id}: placeholder text left from npm run new-rule`).toEqual([]);
        expect(readFileSync(join(folder, id, 'rule.ts'), 'utf8'), `${id}: the scaffold's TODO header`).not.toMatch(/^\/\/ [a-z0-9-]+: TODO /);
      });
    }
  }
});
