import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('non-null-assertion-on-nullable', {
  valid: [
    {
      code: 'const time = proc.stdout.match(/total time:\\s+(.+)/i)![1];',
      filename: 'scripts/bisect.ts',
      name: 'a script parsing a tool it ran stops with the TypeError',
    },
    { code: 'const first = list[0]!;\nconst name = user!.name;', name: 'assertions on other expressions' },
    { code: 'if (cache.has(key)) {\n  use(cache.get(key)!);\n}', options: { collections: true }, name: 'Map.get after has' },
    { code: 'if (!groups.has(k)) groups.set(k, []);\ngroups.get(k)!.push(v);', options: { collections: true }, name: 'Map.get after set' },
    { code: 'const KINDS = new Map([["a", 1]]);\nconst n = KINDS.get(kind)!;', options: { collections: true }, name: 'a prefilled lookup table' },
    { code: 'while (queue.length > 0) {\n  const next = queue.shift()!;\n}', options: { collections: true }, name: 'shift under a length check' },
    { code: 'while (stack?.length) {\n  emit(stack.pop()!);\n}', options: { collections: true }, name: 'optional-chained length check' },
    { code: 'const last = args.length ? args.pop()! : undefined;', options: { collections: true }, name: 'pop in a guarded ternary' },
    {
      code: 'let action;\nwhile ((action = actions.shift()!)) {\n  action.run();\n}',
      options: { collections: true },
      name: 'the assigned result is tested by the loop',
    },
    {
      code: 'if (buffers.every((b) => b.length)) {\n  const row = buffers.map((b) => b.shift()!);\n}',
      options: { collections: true },
      name: 'a check in an enclosing function counts for a callback',
    },
    { code: 'if (/\\d+/.test(text)) {\n  const n = text.match(/\\d+/)![0];\n}', name: 'match after test' },
    { code: 'const prefix = /^[_$]*/.exec(name)![0];\nconst tail = name.match(/\\s*$/)![0];', name: 'a pattern that matches every string' },
    { code: 'const word = name.match(/\\w*/u)![0];', name: 'a u-flag pattern that matches every string' },
    { code: 'if (!process.env.API_URL) throw new Error("API_URL is required");\nconst url = process.env.API_URL!;', name: 'process.env checked first' },
    { code: 'const ok = !!items.find((i) => i.ok);', name: 'logical not is not an assertion' },
    {
      code: "const base = path.split('/').pop()!;\nconst last = [a, b].at(-1)!;",
      options: { collections: true },
      name: 'split with a separator and array literals are never empty',
    },
    { code: 'const el = (document.querySelector("#app") as HTMLElement | null) ?? fallback;', name: 'no assertion' },
    {
      code: "createRoot(document.getElementById('root')!).render(<App />);\nconst out = document.querySelector('#output')!;",
      filename: 'src/main.tsx',
      name: "an element of the page's own markup by a fixed id: the app-entry idiom",
    },
    {
      code: 'const owner = users.find((u) => u.id === id)!;\nconst count = counts.get(key)!;\nconst last = stack.pop()!;',
      name: 'collection lookups are not reported by default',
    },
  ],
  invalid: [
    {
      code: 'export function tokens(formatStr: string) {\n  return formatStr\n    .match(TOKENS)!\n    .map((s) => s.trim());\n}',
      name: 'an assertion in a chain across lines is one finding',
      findings: [{ line: 2, severity: 'info', data: { api: 'String.prototype.match', tier: 'medium' } }],
    },
    {
      code: 'export function owner(users, id) {\n  return users.find((u) => u.id === id)!.name;\n}',
      options: { collections: true },
      name: 'Array.find',
      findings: [
        {
          line: 2,
          title: 'Non-null assertion on users.find((u) => u.id === id) in owner',
          severity: 'info',
          symbol: 'owner',
          data: { api: 'Array.prototype.find' },
        },
      ],
    },
    {
      code: "const count = counts.get(key)!;\nconst last = stack.pop()!;\nconst head = queue.shift()!;\nconst tail = items.at(-1)!;\nconst char = text.split('').pop()!;",
      options: { collections: true },
      name: 'collections: low (an empty string splits into no characters)',
      findings: [
        { line: 1, severity: 'info', data: { api: 'Map.get (or another keyed lookup)' } },
        { line: 2, severity: 'info', data: { api: 'Array.prototype.pop' } },
        { line: 3, severity: 'info' },
        { line: 4, severity: 'info' },
        { line: 5, severity: 'info' },
      ],
    },
    {
      code: 'const root = panel.querySelector("#root")!;\nconst form = document.getElementById(formId)!;\nconst version = line.match(/v(\\d+)/)![1];\nconst m = PATTERN.exec(text)!;\nconst token = process.env.TOKEN!;\nconst id = el.getAttribute("data-id")!;',
      name: 'DOM lookups, regex matches, process.env and attributes: medium',
      findings: [
        { line: 1, severity: 'info', title: 'Non-null assertion on panel.querySelector("#root") in example.ts', data: { api: 'querySelector' } },
        { line: 2, severity: 'info' },
        { line: 3, severity: 'info', data: { api: 'String.prototype.match' } },
        { line: 4, severity: 'info', data: { api: 'RegExp.prototype.exec' } },
        { line: 5, severity: 'info', data: { api: 'process.env' } },
        { line: 6, severity: 'info' },
      ],
    },
    {
      // RegExp takes 2^40 steps to find that this literal cannot match ''; the analyzer must not run it.
      code: `const m = text.match(/${'(?:|)'.repeat(40)}x/)!;`,
      name: 'a literal whose empty-string test backtracks exponentially',
      findings: [{ line: 1, severity: 'info', data: { api: 'String.prototype.match' } }],
    },
    {
      code: 'const a = ready && users.find(isAdmin)!.name;\nconst b = !map.get(k)!;\nconst c = x + list.pop()!;',
      options: { collections: true },
      name: 'the grammar puts the ! around the whole operator expression; it belongs to the last operand',
      findings: [
        { line: 1, data: { api: 'Array.prototype.find' } },
        { line: 2, data: { api: 'Map.get (or another keyed lookup)' } },
        { line: 3, data: { api: 'Array.prototype.pop' } },
      ],
    },
    {
      code: 'const env = process.env.MODE!;\nconst other = process.env.MODE_EXTRA;',
      name: 'a longer variable name is not a check',
      findings: [{ line: 1, data: { api: 'process.env' } }],
    },
  ],
});

new AnalyzerTester(runtime).run('non-null-assertion-on-nullable', {
  valid: [
    { code: 'const x = (ready && users.find(isAdmin))!;', options: { collections: true }, name: 'explicit parentheses: the ! applies to the whole expression' },
    { code: 'const v = (a && b)!.c;', name: 'a parenthesised logical expression' },
    {
      code: 'const v = users.find(isAdmin) && other!.name;\nconst w = cache.get(k) || fallback!.value;',
      options: { collections: true },
      name: 'grammar quirk: `a && b!.c` comes out as `(a && b)!.c`, yet the ! belongs to b, not to the lookup',
    },
  ],
  invalid: [
    {
      code: 'const v = (users.find(isAdmin))!;',
      options: { collections: true },
      name: 'parentheses around the lookup alone',
      findings: [{ line: 1, data: { api: 'Array.prototype.find' } }],
    },
  ],
});
