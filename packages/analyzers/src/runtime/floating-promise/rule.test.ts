import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('floating-promise', {
  valid: [
    { code: 'async function save() {}\nasync function main() {\n  await save();\n}', name: 'awaited' },
    { code: 'async function save() {}\nfunction main() {\n  return save();\n}', name: 'returned' },
    { code: 'async function save() {}\nvoid save();', name: 'explicitly discarded with void' },
    { code: 'async function save() {}\nsave().catch((error) => console.error(error));', name: 'rejection handled with catch' },
    { code: 'async function save() {}\nsave().then(done, fail);', name: 'rejection handled by the second then argument' },
    { code: 'async function save() {}\nsave().then(done).catch(report);', name: 'a later catch handles the chain' },
    { code: 'async function save() {}\nsave().catch(report).finally(close);', name: 'finally after catch' },
    { code: 'async function save() {}\nconst pending = save();\npending.catch(report);', name: 'assigned, then handled' },
    { code: 'function save() {}\nsave();', name: 'a plain function' },
    { code: 'async function save() {}\nfunction f(save) {\n  save();\n}', name: 'a parameter shadows the async function' },
    { code: 'async function save() {}\nfunction f() {\n  const save = () => 1;\n  save();\n}', name: 'a local declaration shadows the async function' },
    { code: 'let save = async () => {};\nsave = () => {};\nsave();', name: 'let bindings can be reassigned: not judged' },
    { code: 'async function* items() {}\nitems();', name: 'async generators return iterators' },
    {
      code: 'async function main() {\n  try {\n    await run();\n  } catch (error) {\n    console.error(error);\n    process.exitCode = 1;\n  }\n}\nmain();',
      name: 'an async function whose whole body is try/catch cannot reject',
    },
    { code: '(async () => {\n  try {\n    await run();\n  } catch (error) {\n    report(error);\n  }\n})();', name: 'an async IIFE that catches everything' },
    {
      code: 'class A {\n  async load() {}\n  run() {\n    const f = function () { this.load(); };\n  }\n}',
      name: 'this inside a function expression is not the instance',
    },
    { code: 'class A {\n  load() {}\n  run() {\n    this.load();\n  }\n}', name: 'a non-async method' },
    { code: "import { readFileSync } from 'node:fs';\nreadFileSync('a');", name: 'synchronous fs' },
    { code: "import { watch } from 'node:fs/promises';\nwatch('a');", name: 'fs/promises.watch returns an async iterator' },
    { code: "import { readFile } from './local-promises';\nreadFile('a');", name: 'a look-alike module' },
    { code: 'function fetch() {}\nfetch("/x");', name: 'a local fetch' },
    { code: 'Promise.allSettled([a(), b()]);', name: 'allSettled does not reject' },
    { code: 'const run = async () => {};\nexport const handler = () => run();', name: 'arrow expression bodies return the promise' },
    { code: 'x.then;', name: 'not a call' },
    {
      code: 'function load(source) {\n  source.next().then((value) => use(value));\n  this.promise.then(cancel);\n  Promise.resolve().then(cleanup);\n}',
      name: 'then on a receiver the rule does not know as a promise source, by default',
    },
    {
      code: 'worker.start({ quiet: true }).then(() => render(<App />));',
      filename: 'src/index.tsx',
      name: 'a then chain in module code: the continuation waits in the callback',
    },
    {
      code: 'class Stream {\n  emit(error) {\n    Promise.reject(error);\n  }\n}',
      name: 'Promise.reject as a statement raises an unhandled rejection on purpose',
    },
    {
      code: 'async function loop() {}\nfunction main() {\n  loop();\n  loop();\n}',
      filename: 'scripts/stress-test.js',
      name: 'a script starts its loops without awaiting them',
    },
    {
      code: '/**\n * - Please do NOT modify this file.\n */\nfunction handle() {\n  (async () => {\n    await send();\n  })();\n}',
      filename: 'public/mockServiceWorker.js',
      name: 'a generated copy that must not be edited',
    },
    {
      code: '(async () => {\n  await run();\n})();\nmain().then(() => console.log("done"));\nasync function main() {}',
      name: "a script's entry call in module code: a rejection ends the process as a top-level throw would",
    },
  ],
  invalid: [
    {
      code: 'async function load() {}\nfunction f() {\n  load().then(render);\n  fetch("/x").then(show);\n}',
      name: 'then on a known promise source',
      findings: [{ line: 3, title: 'Unhandled promise from load().then() in f' }, { line: 4 }],
    },
    {
      code: 'async function save(user) {}\nexport function onSubmit(user) {\n  save(user);\n}',
      name: 'a same-file async function called as a statement',
      findings: [{ line: 3, title: 'Unhandled promise from save() in onSubmit', symbol: 'onSubmit', severity: 'info', data: { promise: 'save()' } }],
    },
    {
      code: 'export const save = async () => {};\nexport function f() {\n  save();\n}',
      name: 'an async arrow bound to const',
      findings: [{ line: 3, title: 'Unhandled promise from save() in f' }],
    },
    {
      code: 'class Store {\n  async flush() {}\n  static async open() {}\n  write() {\n    this.flush();\n    setTimeout(() => this.flush(), 10);\n  }\n}\nStore.open();',
      name: 'async methods through this (also inside arrows) and static methods through the class',
      findings: [
        { line: 5, title: 'Unhandled promise from this.flush() in Store.write', symbol: 'Store.write' },
        { line: 9, title: 'Unhandled promise from Store.open() in example.ts' },
      ],
    },
    {
      code: 'class Store {\n  reload = async () => {};\n  run() {\n    this.reload();\n  }\n}',
      name: 'an async arrow class field',
      findings: [{ line: 4, title: 'Unhandled promise from this.reload() in Store.run' }],
    },
    {
      code: 'const api = {\n  async load() {},\n  save: async () => {},\n};\napi.load();\napi.save();',
      name: 'async members of a const object literal',
      findings: [
        { line: 5, title: 'Unhandled promise from api.load() in example.ts' },
        { line: 6, title: 'Unhandled promise from api.save() in example.ts' },
      ],
    },
    {
      code: "import { writeFile } from 'node:fs/promises';\nimport * as fsp from 'fs/promises';\nimport fs, { promises as p } from 'fs';\nconst q = require('fs').promises;\nwriteFile('a', 'b');\nfsp.rm('a');\np.mkdir('d');\nfs.promises.unlink('x');\nq.stat('y');",
      name: 'Node fs/promises functions, however imported',
      findings: [
        { line: 5, title: 'Unhandled promise from writeFile() in example.ts' },
        { line: 6, title: 'Unhandled promise from fsp.rm() in example.ts' },
        { line: 7, title: 'Unhandled promise from p.mkdir() in example.ts' },
        { line: 8, title: 'Unhandled promise from fs.promises.unlink() in example.ts' },
        { line: 9, title: 'Unhandled promise from q.stat() in example.ts' },
      ],
    },
    {
      code: "function ping() {\n  fetch('/ping');\n  window.fetch('/ping');\n  Promise.all([a(), b()]);\n  new Promise((resolve) => setTimeout(resolve, 10));\n}",
      name: 'fetch, Promise combinators and new Promise',
      findings: [
        { line: 2, title: 'Unhandled promise from fetch() in ping' },
        { line: 3, title: 'Unhandled promise from window.fetch() in ping' },
        { line: 4, title: 'Unhandled promise from Promise.all() in ping' },
        { line: 5, title: 'Unhandled promise from new Promise() in ping' },
      ],
    },
    {
      code: 'function load(source) {\n  source.next().then((value) => use(value));\n  source.next().catch(report).then(use);\n}',
      options: { anyThen: true },
      name: 'then without a rejection handler, on anything (anyThen); lower confidence after a catch',
      findings: [
        { line: 2, title: 'Unhandled promise from source.next().then() in load' },
        { line: 3, title: 'Unhandled promise from source.next().catch(report).then() in load' },
      ],
    },
    {
      code: 'async function save() {}\nfunction f() {\n  save().finally(close);\n  ready && save();\n  ok ? save() : skip();\n  (0, save());\n}',
      name: 'finally passes rejections on; logical, conditional and comma operands',
      findings: [
        { line: 3, title: 'Unhandled promise from save().finally() in f' },
        { line: 4, title: 'Unhandled promise from save() in f' },
        { line: 5, title: 'Unhandled promise from save() in f' },
        { line: 6, title: 'Unhandled promise from save() in f' },
      ],
    },
    {
      code: 'export function start() {\n  (async () => {\n    await run();\n  })();\n  main();\n}\nasync function main() {}',
      name: 'an async IIFE and a hoisted async declaration inside a function',
      findings: [
        { line: 2, endLine: 4, title: 'Unhandled promise from async IIFE in start' },
        { line: 5, title: 'Unhandled promise from main() in start' },
      ],
    },
    {
      code: 'async function save() {}\nexport function onClick() {\n  items.forEach((item) => {\n    save(item);\n  });\n}',
      name: 'inside a callback: the symbol is qualified, the title names the outer function',
      findings: [{ line: 4, title: 'Unhandled promise from save() in onClick', symbol: 'onClick > forEach callback' }],
    },
  ],
});
