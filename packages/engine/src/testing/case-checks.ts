// What both testers check the same way: declarations (unknown keys, the rule and its kind) before
// anything runs, and an actual finding against an expected one.
import { expect } from 'vitest';
import type { Analyzer, Rule } from '../contracts/analyzer.js';
import type { Finding } from '../domain/types.js';

export class AnalyzerTesterError extends Error {
  override name = 'AnalyzerTesterError';
}

/** The fields of an expected finding both testers compare (file rules by line, repository rules by path and line). */
export interface ExpectedFindingFields {
  endLine?: number;
  title?: string;
  titleIncludes?: string;
  severity?: Finding['severity'];
  symbol?: string;
  data?: Record<string, number | string | boolean>;
}

export function checkKeys(obj: object, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) throw new AnalyzerTesterError(`${where}: unknown key "${key}"`);
  }
}

/** The analyzer's rule `ruleId`, which must be of `kind`; `otherwise` says how to test the other kind. */
export function ruleOfKind<K extends Rule['kind']>(analyzer: Analyzer, ruleId: string, kind: K, otherwise: string): Extract<Rule, { kind: K }> {
  const rule = analyzer.rules.find((r) => r.meta.id === ruleId);
  if (!rule) throw new AnalyzerTesterError(`analyzer "${analyzer.id}" has no rule "${ruleId}"`);
  if (rule.kind !== kind) throw new AnalyzerTesterError(`rule "${ruleId}" is ${rule.kind === 'file' ? 'a file rule' : 'a repository rule'}; ${otherwise}`);
  return rule as Extract<Rule, { kind: K }>;
}

/** A finding must be explained and anchored inside its file, and match every field the test gives. */
export function assertFindingMatches(actual: Finding, expected: ExpectedFindingFields, where: string): void {
  expect(actual.title.length, `${where}: title must not be empty`).toBeGreaterThan(0);
  expect(actual.description.length, `${where}: description must not be empty`).toBeGreaterThan(0);
  expect(actual.anchor.validated, `${where}: anchor must be inside the file`).toBe(true);
  if (expected.endLine !== undefined) expect(actual.anchor.lineEnd, `${where}: endLine`).toBe(expected.endLine);
  if (expected.title !== undefined) expect(actual.title, `${where}: title`).toBe(expected.title);
  if (expected.titleIncludes !== undefined) expect(actual.title, `${where}: title`).toContain(expected.titleIncludes);
  if (expected.severity !== undefined) expect(actual.severity, `${where}: severity`).toBe(expected.severity);
  if (expected.symbol !== undefined) expect(actual.symbol, `${where}: symbol`).toBe(expected.symbol);
  if (expected.data !== undefined) expect(actual.data, `${where}: data`).toMatchObject(expected.data);
}
