// Accuracy of the parse repairs on a real code base: on effect (193 of 363 files fail to parse as
// tree-sitter-typescript 0.23.2 reads them), every repair must sit where the TypeScript compiler
// has the construct it stands for, every repaired file must parse cleanly, and every generic call
// signature the compiler sees must be a call signature of the repaired tree.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type TypeScript from 'typescript';
import { describe, expect, it } from 'vitest';
import { repairParse, type Repair } from '../packages/engine/src/parsing/parse-repair.js';
import { parseSource } from '../packages/engine/src/parsing/parser.js';
import { obtainEffect } from './helpers/corpora.js';

const ts: typeof TypeScript = createRequire(import.meta.url)('typescript');

/** Where the compiler has each construct a repair can stand for, by its start offset. */
function constructsOf(path: string, source: string) {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const members = new Set<number>();
  const genericSignatures: number[] = [];
  const modifiers = new Set<number>();
  const typeOnlyStars: number[] = [];
  const templates: Array<[number, number]> = [];
  const visit = (node: TypeScript.Node): void => {
    if (ts.isTypeElement(node) && (ts.isTypeLiteralNode(node.parent) || ts.isInterfaceDeclaration(node.parent))) members.add(node.getStart(file));
    if (ts.isCallSignatureDeclaration(node) && node.typeParameters) genericSignatures.push(node.getStart(file));
    if (ts.isTypeParameterDeclaration(node)) for (const m of node.modifiers ?? []) modifiers.add(m.getStart(file));
    if (ts.isExportDeclaration(node) && node.isTypeOnly && (!node.exportClause || ts.isNamespaceExport(node.exportClause)))
      typeOnlyStars.push(node.getStart(file));
    if (ts.isTemplateLiteralTypeNode(node) || (ts.isLiteralTypeNode(node) && ts.isNoSubstitutionTemplateLiteral(node.literal)))
      templates.push([node.getStart(file), node.end]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { members, genericSignatures, modifiers, typeOnlyStars, templates };
}

function standsForItsConstruct(repair: Repair, source: string, c: ReturnType<typeof constructsOf>): boolean {
  switch (repair.kind) {
    case 'member-separator':
      return c.members.has(repair.at + 1);
    case 'variance':
      return c.modifiers.has(repair.at);
    case 'export-type-star':
      return c.typeOnlyStars.some((start) => /^export\s+$/.test(source.slice(start, repair.at)));
    case 'template-escape':
      return c.templates.some(([start, end]) => repair.at > start && repair.at < end);
  }
}

describe('parse repairs on effect 3.22.4', () => {
  it('repair only where the compiler has the construct, and leave no file with errors', (context) => {
    const effect = obtainEffect();
    if (effect.error !== undefined) return context.skip(`corpus unavailable: ${effect.error}`);
    const dir = join(effect.root, 'src');
    const parse = (text: string) => parseSource(text, 'typescript', { repair: false });
    let repairedFiles = 0;
    let repairs = 0;
    let signatures = 0;
    for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((p) => p.endsWith('.ts'))
      .sort()) {
      const source = readFileSync(join(dir, path), 'utf8');
      const first = parse(source);
      if (!first.rootNode.hasError) continue;
      const repaired = repairParse(source, first, parse);
      repairedFiles++;
      expect(repaired.tree.rootNode.hasError, path).toBe(false);
      const constructs = constructsOf(path, source);
      const misplaced = repaired.repairs.filter((r) => !standsForItsConstruct(r, source, constructs));
      expect(misplaced, path).toEqual([]);
      repairs += repaired.repairs.length;
      for (const start of constructs.genericSignatures) {
        const node = repaired.tree.rootNode.descendantForIndex(start, start + 1);
        expect([node.parent?.parent?.type, node.parent?.parent?.startIndex], `${path} signature at ${start}`).toEqual(['call_signature', start]);
        signatures++;
      }
    }
    expect(repairedFiles).toBe(193);
    expect(repairs).toBeGreaterThan(3000);
    expect(signatures).toBeGreaterThan(3000);
  }, 180_000);
});
