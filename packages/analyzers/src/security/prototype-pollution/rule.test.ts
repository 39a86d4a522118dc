import { AnalyzerTester } from '@codehealth/engine/testing';
import { security } from '../index.js';

new AnalyzerTester(security).run('prototype-pollution', {
  valid: [
    {
      code: 'function merge(target, source) {\n  for (const key in source) {\n    if (typeof source[key] === "object") merge(target[key] ??= {}, source[key]);\n    else target[key] = source[key];\n  }\n}',
      filename: 'docs/assets/vendor.js',
      name: 'docs and other non-production code',
    },
    { code: 'const copy = Object.assign({}, JSON.parse(body));', name: 'Object.assign of parsed JSON' },
    {
      code: "function merge(target, source) {\n  for (const key in source) {\n    if (key === '__proto__' || key === 'constructor') continue;\n    if (isObject(source[key])) merge(target[key] ??= {}, source[key]);\n    else target[key] = source[key];\n  }\n}",
      filename: 'src/merge.js',
      name: 'a recursive merge with a guard',
    },
    {
      code: 'function clone(source) {\n  const out = Object.create(null);\n  for (const key in source) out[key] = source[key];\n  return out;\n}',
      filename: 'src/clone.js',
      name: 'a prototype-less target',
    },
    { code: 'const DEFAULTS = { a: 1 };\nconst out = {};\nfor (const key in DEFAULTS) out[key] = DEFAULTS[key];', name: 'keys of a local literal' },
    {
      code: 'function fill(grid, rows, cols) {\n  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) grid[row][col] = 0;\n}',
      name: 'numeric indexes',
    },
    {
      code: 'function rename(map: Record<string, string>) {\n  const out: Record<string, string> = {};\n  for (const [k, v] of Object.entries(map)) out[v] = k;\n  return out;\n}',
      name: 'keyed by the value, not the key',
    },
    {
      code: 'function setKey(obj, keys, value) {\n  let o = obj;\n  for (const key of keys.slice(0, -1)) {\n    if (isConstructorOrProto(o, key)) return;\n    o = o[key] ??= {};\n  }\n  o[keys[keys.length - 1]] = value;\n}',
      filename: 'src/set-key.js',
      name: "a path setter with minimist's guard function",
    },
    {
      code: 'var extend = module.exports = function (target, obj) {\n  Object.keys(obj).forEach(function (key) {\n    var val = safeGetProperty(obj, key);\n    target[key] = typeof val === "object" ? extend({}, val) : val;\n  });\n};',
      filename: 'src/extend.js',
      name: "deep-extend 0.6's safe accessor",
    },
    {
      code: 'function copyExtra(error, original) {\n  Object.keys(original).forEach((key) => {\n    if (!(key in error)) error[key] = original[key];\n  });\n}',
      filename: 'src/errors.js',
      name: 'only keys the target lacks (effect): __proto__ is in every object',
    },
    {
      code: 'export const extendFields = (a, b) => {\n  const out = { ...a };\n  for (const key of Reflect.ownKeys(b)) {\n    if (key in a) {\n      throw new Error(`duplicate ${String(key)}`);\n    }\n    out[key] = b[key];\n  }\n  return out;\n};',
      filename: 'src/schema.ts',
      name: 'a copy that throws on a key the target has (effect): __proto__ is in every object',
    },
    {
      code: 'export function applyOptions(options, input) {\n  Object.keys(input).forEach((key) => {\n    options[key] = input[key];\n  });\n}',
      filename: 'src/options.js',
      name: "a flat key copy over a parameter: `__proto__` replaces only the target's own prototype",
    },
    {
      code: 'function clone(v) {\n  if (Array.isArray(v)) return v.map(clone);\n  const res = {};\n  for (const key in v) res[key] = clone(v[key]);\n  return res;\n}',
      filename: 'src/clone.js',
      name: 'a deep clone writes into the object it builds',
    },
    {
      code: "app.post('/prefs', (req, res) => {\n  const prefs = JSON.parse(req.body.prefs);\n  for (const [key, value] of Object.entries(prefs)) settings[key] = prefs[key];\n});",
      name: 'a flat copy of parsed request data',
    },
    {
      code: 'function update(state, id, value) {\n  const next = { ...state };\n  next[id] = value;\n  return next;\n}',
      name: 'a single dynamic key without a path walk',
    },
  ],
  invalid: [
    {
      code: 'export function merge(target: any, source: any) {\n  for (const key in source) {\n    if (typeof source[key] === "object") {\n      if (!target[key]) target[key] = {};\n      merge(target[key], source[key]);\n    } else {\n      target[key] = source[key];\n    }\n  }\n  return target;\n}',
      findings: [
        {
          line: 4,
          severity: 'high',
          symbol: 'merge',
          title: 'Recursive merge `merge` copies keys without a __proto__ guard in merge',
          data: { pattern: 'recursive-merge' },
        },
      ],
    },
    {
      code: 'var deepExtend = module.exports = function (target) {\n  var args = Array.prototype.slice.call(arguments, 1);\n  args.forEach(function (obj) {\n    Object.keys(obj).forEach(function (key) {\n      var val = obj[key];\n      if (typeof val !== "object") target[key] = val;\n      else target[key] = deepExtend(target[key], val);\n    });\n  });\n};',
      filename: 'src/deep-extend.js',
      name: 'recursion through the name the function is bound to, from nested callbacks (deep-extend 0.5)',
      findings: [
        {
          line: 6,
          severity: 'high',
          title: 'Recursive merge `deepExtend` copies keys without a __proto__ guard in module.exports > forEach callback > forEach callback',
        },
      ],
    },
    {
      code: 'function setKey(obj, keys, value) {\n  var o = obj;\n  keys.slice(0, -1).forEach(function (key) {\n    if (o[key] === undefined) o[key] = {};\n    o = o[key];\n  });\n  o[keys[keys.length - 1]] = value;\n}',
      filename: 'src/minimist.js',
      name: 'a path setter walking in a callback is reported once (minimist 1.2.0)',
      findings: [{ line: 4, severity: 'high', symbol: 'setKey > forEach callback', data: { pattern: 'path-setter' } }],
    },
    {
      code: 'export function countingMerge(out, input) {\n  let clashes = 0;\n  for (const key of Object.keys(input)) {\n    if (key in out) clashes++;\n    if (typeof input[key] === "object") countingMerge(out[key] ??= {}, input[key]);\n    else out[key] = input[key];\n  }\n  return clashes;\n}',
      filename: 'src/copy.js',
      name: 'a presence test that does not leave the loop is no guard',
      findings: [{ line: 5, severity: 'high', data: { pattern: 'recursive-merge' } }],
    },
    {
      code: 'function decode(str) {\n  const out = {};\n  let section = null;\n  for (const line of str.split("\\n")) {\n    const [key, value] = line.split("=");\n    if (section) out[section][key] = value;\n  }\n  return out;\n}',
      filename: 'src/ini.js',
      name: 'nested assignment by two dynamic keys',
      findings: [{ line: 6, severity: 'medium', data: { pattern: 'nested-keys' } }],
    },
    {
      code: 'export function setPath(obj, path, value) {\n  const parts = path.split(".");\n  let cur = obj;\n  for (let i = 0; i < parts.length - 1; i++) {\n    if (!cur[parts[i]]) cur[parts[i]] = {};\n    cur = cur[parts[i]];\n  }\n  cur[parts[parts.length - 1]] = value;\n}',
      filename: 'src/set.js',
      name: 'a path setter is reported once',
      findings: [{ line: 5, severity: 'high', symbol: 'setPath', data: { pattern: 'path-setter' } }],
    },
  ],
});
