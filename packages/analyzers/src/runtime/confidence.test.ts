// The confidence of a finding says how sure the syntax is; the documented tiers, checked together
// (AnalyzerTester compares severities and titles, not confidence).
import { describe, expect, it } from 'vitest';
import { runRule } from '@codehealth/engine/testing';
import { runtime } from './index.js';

function confidences(ruleId: string, code: string, filename?: string, options?: Record<string, unknown>): number[] {
  return runRule(runtime, ruleId, { code, ...(filename ? { filename } : {}), ...(options ? { options } : {}) })
    .sort((a, b) => a.anchor.lineStart - b.anchor.lineStart)
    .map((finding) => finding.confidence);
}

describe('runtime findings carry the documented confidence', () => {
  it('floating-promise: Node promise APIs 95, same-file async 90, then 85, then after a catch 70', () => {
    const code =
      "import { rm } from 'node:fs/promises';\nasync function save() {}\nrm('x');\nfunction f() {\n  save();\n  p.then(use);\n  p.catch(log).then(use);\n}";
    expect(confidences('floating-promise', code, undefined, { anyThen: true })).toEqual([95, 90, 85, 70]);
  });

  it('empty-catch: empty 90; a bare return is not empty', () => {
    expect(confidences('empty-catch', 'try {\n  a();\n} catch {}\nfunction f() {\n  try {\n    a();\n  } catch {\n    return;\n  }\n}')).toEqual([90]);
  });

  it('unguarded-json-parse: network and external 90, unknown 70, parameters and bundled files 50', () => {
    const code = 'JSON.parse(req.body);\nJSON.parse(process.env.X);\nJSON.parse(store.read());\nfunction f(text) {\n  return JSON.parse(text);\n}';
    expect(confidences('unguarded-json-parse', code, undefined, { allInputs: true })).toEqual([90, 90, 70, 50]);
    expect(confidences('unguarded-json-parse', code)).toEqual([90]);
  });

  it('unreachable-code: 95 after a jump, 90 after an if/else that exits', () => {
    expect(confidences('unreachable-code', 'function f() {\n  return;\n  a();\n}\nfunction g() {\n  if (x) return;\n  else throw e;\n  b();\n}')).toEqual([
      95, 90,
    ]);
  });

  it('coercing-equality: undefined and trap literals 95, other literals 80, no literal 60', () => {
    expect(confidences('coercing-equality', 'a == undefined;\nb == false;\nc == 200;\nd == e;')).toEqual([95, 95, 80, 60]);
  });

  it('non-null-assertion-on-nullable: keyed lookups 70, other APIs 80', () => {
    expect(confidences('non-null-assertion-on-nullable', 'm.get(k)!;\nxs.find(p)!;\nprocess.env.X!;', undefined, { collections: true })).toEqual([70, 80, 80]);
  });

  it('async-event-handler: 80', () => {
    expect(confidences('async-event-handler', "e.on('x', async () => {\n  await f();\n});")).toEqual([80]);
  });

  it('throw-non-error: literals 95, String() 90, object literals and constants 85, .message 75', () => {
    const code =
      'function f() {\n  const m = "x";\n  if (a) throw "s";\n  if (b) throw String(c);\n  if (c) throw { c };\n  if (d) throw m;\n  throw e.message;\n}';
    expect(confidences('throw-non-error', code)).toEqual([95, 90, 85, 85, 75]);
  });
});
