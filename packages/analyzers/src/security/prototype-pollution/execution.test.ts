// Each shape is run on `JSON.parse('{"__proto__":{"polluted":1}}')` (JSON.parse makes `__proto__` an
// own key, as a request body does) and the rule must report it exactly when `({}).polluted` is set
// afterwards: the finding claims Object.prototype is written, so the code is the judge.
import { runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

interface Shape {
  name: string;
  /** A function `run(payload)` that applies the shape to the parsed payload. */
  code: string;
}

const SHAPES: Shape[] = [
  {
    name: 'a recursive merge into the target (lodash < 4.17.5)',
    code: 'function merge(target, source) {\n  for (const key in source) {\n    if (typeof source[key] === "object" && source[key] !== null) {\n      if (!target[key]) target[key] = {};\n      merge(target[key], source[key]);\n    } else {\n      target[key] = source[key];\n    }\n  }\n  return target;\n}\nfunction run(payload) { return merge({}, payload); }',
  },
  {
    name: 'a merge through an alias of target[key], guarded only by `key in to` (Vue 2 data merge)',
    code: 'function mergeData(to, from) {\n  for (const key in from) {\n    const toVal = to[key];\n    const fromVal = from[key];\n    if (key in to && typeof toVal === "object" && typeof fromVal === "object") mergeData(toVal, fromVal);\n    else to[key] = fromVal;\n  }\n  return to;\n}\nfunction run(payload) { return mergeData({}, payload); }',
  },
  {
    name: 'a path setter walking `cur = cur[part]` (msw multipart map)',
    code: 'function setPath(root, dotPath, value) {\n  const parts = dotPath.split(".");\n  const last = parts.pop();\n  let cur = root;\n  for (const part of parts) {\n    if (!(part in cur)) throw new Error("no " + part);\n    cur = cur[part];\n  }\n  cur[last] = value;\n}\nfunction run() { setPath({ variables: {} }, "__proto__.polluted", 1); }',
  },
  {
    name: 'a deep clone into a new object (Vue compiler `clone`)',
    code: 'function clone(v) {\n  if (Array.isArray(v)) return v.map(clone);\n  if (v && typeof v === "object") {\n    const res = {};\n    for (const key in v) res[key] = clone(v[key]);\n    return res;\n  }\n  return v;\n}\nfunction run(payload) { return clone(payload); }',
  },
  {
    name: "a deep clone onto the source's prototype (immer deepClonePatchValue)",
    code: 'function deepClone(obj) {\n  if (!obj || typeof obj !== "object") return obj;\n  if (Array.isArray(obj)) return obj.map(deepClone);\n  const cloned = Object.create(Object.getPrototypeOf(obj));\n  for (const key in obj) cloned[key] = deepClone(obj[key]);\n  return cloned;\n}\nfunction run(payload) { return deepClone(payload); }',
  },
  {
    name: 'a merge that spreads the target into a new object first (hono deepMerge)',
    code: 'function isObject(x) { return typeof x === "object" && x !== null && !Array.isArray(x); }\nfunction deepMerge(target, source) {\n  const merged = { ...target };\n  for (const key in source) {\n    const value = source[key];\n    if (isObject(merged[key]) && isObject(value)) merged[key] = deepMerge(merged[key], value);\n    else merged[key] = value;\n  }\n  return merged;\n}\nfunction run(payload) { return deepMerge({ a: 1 }, payload); }',
  },
  {
    name: 'a reducer that copies its accumulator before merging (OpenAI streaming example)',
    code: 'function reduce(acc, delta) {\n  acc = { ...acc };\n  for (const [key, value] of Object.entries(delta)) {\n    if (acc[key] === undefined) acc[key] = value;\n    else if (typeof acc[key] === "object") acc[key] = reduce(acc[key], value);\n  }\n  return acc;\n}\nfunction run(payload) { return reduce({ a: {} }, payload); }',
  },
  {
    name: 'an in-place walk over its own keys',
    code: 'function rewrite(m) {\n  for (const key in m) {\n    const value = m[key];\n    if (typeof value === "string") m[key] = value.trim();\n    else if (value && typeof value === "object") rewrite(value);\n  }\n}\nfunction run(payload) { rewrite(payload); }',
  },
  {
    name: 'a flat key copy into an existing object (replaces only its own prototype)',
    code: 'function applyOptions(options, input) {\n  Object.keys(input).forEach((key) => {\n    options[key] = input[key];\n  });\n  return options;\n}\nfunction run(payload) { return applyOptions({}, payload); }',
  },
  {
    name: 'a merge that recurses only where the target owns the key',
    code: 'function merge(target, source) {\n  for (const key in source) {\n    if (Object.prototype.hasOwnProperty.call(target, key) && typeof target[key] === "object") merge(target[key], source[key]);\n    else target[key] = source[key];\n  }\n  return target;\n}\nfunction run(payload) { return merge({ a: {} }, payload); }',
  },
];

const pollutes = (code: string): boolean => {
  const run = new Function(`${code}\nreturn run;`)() as (payload: unknown) => unknown;
  try {
    run(JSON.parse('{"__proto__":{"polluted":1},"a":{"b":2}}'));
    return ({} as Record<string, unknown>).polluted !== undefined;
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
};

describe('prototype-pollution, checked by running the code', () => {
  for (const shape of SHAPES) {
    it(shape.name, () => {
      const polluted = pollutes(shape.code);
      const findings = runRule(security, 'prototype-pollution', { code: shape.code, filename: 'src/shape.js' });
      expect(findings.length > 0, `polluted: ${polluted}; findings: ${findings.map((f) => f.title).join(' | ')}`).toBe(polluted);
    });
  }

  it('runs shapes on both sides of the line', () => {
    const verdicts = SHAPES.map((s) => pollutes(s.code));
    expect(verdicts.filter(Boolean).length).toBe(3);
  });
});
