import { AnalyzerTester } from '@codehealth/engine/testing';
import { security } from '../index.js';

new AnalyzerTester(security).run('prototype-pollution', {
  valid: [
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
    { code: 'function fill(grid, rows, cols) {\n  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) grid[row][col] = 0;\n}', name: 'numeric indexes' },
    { code: 'function rename(map: Record<string, string>) {\n  const out: Record<string, string> = {};\n  for (const [k, v] of Object.entries(map)) out[v] = k;\n  return out;\n}', name: 'keyed by the value, not the key' },
    { code: 'function update(state, id, value) {\n  const next = { ...state };\n  next[id] = value;\n  return next;\n}', name: 'a single dynamic key without a path walk' },
  ],
  invalid: [
    {
      code: 'export function merge(target: any, source: any) {\n  for (const key in source) {\n    if (typeof source[key] === "object") {\n      if (!target[key]) target[key] = {};\n      merge(target[key], source[key]);\n    } else {\n      target[key] = source[key];\n    }\n  }\n  return target;\n}',
      findings: [{ line: 4, severity: 'high', symbol: 'merge', title: 'Recursive merge `merge` copies keys without a __proto__ guard in merge', data: { pattern: 'recursive-merge' } }],
    },
    {
      code: 'export function applyOptions(options, input) {\n  Object.keys(input).forEach((key) => {\n    options[key] = input[key];\n  });\n}',
      filename: 'src/options.js',
      name: 'a key copy over a parameter',
      findings: [{ line: 3, severity: 'medium', title: 'Key copy from `input` without a __proto__ guard in applyOptions > forEach callback', data: { pattern: 'key-copy' } }],
    },
    {
      code: "app.post('/prefs', (req, res) => {\n  const prefs = JSON.parse(req.body.prefs);\n  for (const [key, value] of Object.entries(prefs)) settings[key] = prefs[key];\n});",
      name: 'entries of parsed request data',
      findings: [{ line: 3, severity: 'medium', data: { pattern: 'key-copy' } }],
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
