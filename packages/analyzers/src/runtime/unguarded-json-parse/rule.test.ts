import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('unguarded-json-parse', {
  valid: [
    { code: 'const defaults = JSON.parse(\'{"a":1}\');', name: 'a string literal' },
    { code: 'const copy = JSON.parse(JSON.stringify(value));', name: 'a deep copy through JSON.stringify' },
    { code: 'const TEMPLATE = `{"a":1}`;\nconst value = JSON.parse(TEMPLATE);', name: 'a const bound to a static template' },
    {
      code: 'function load(raw) {\n  try {\n    return JSON.parse(raw);\n  } catch (error) {\n    throw new Error(`bad config: ${error.message}`);\n  }\n}',
      name: 'inside try with catch',
    },
    { code: 'fetchText().then((text) => JSON.parse(text)).catch(report);', name: 'a then callback of a chain with a catch' },
    {
      code: 'const config = { decode: (e) => JSON.parse(e.data) };\nsocket.onmessage = (e) => {\n  try {\n    next(config.decode(e));\n  } catch (err) {\n    fail(err);\n  }\n};',
      name: 'every caller in the file catches',
    },
    { code: 'const text = "JSON.parse(x)";', name: 'inside a string' },
    { code: 'const parse = JSON.parse;', name: 'not a call' },
    {
      code: 'export function parseReport(text) {\n  return JSON.parse(text);\n}\nclass Req {\n  json() {\n    return this.body("text").then((text) => JSON.parse(text));\n  }\n}\nconst decode = (e) => JSON.parse(e.data);',
      name: 'a function named for parsing throws by contract, as Response.json() does',
    },
    {
      code: 'async function defaultParseResponse(response) {\n  const bodyText = await response.text();\n  return JSON.parse(bodyText);\n}',
      name: "an SDK's response parser",
    },
    {
      code: 'const pkg = JSON.parse(readFileSync("./package.json", "utf8"));\nconst own = JSON.parse(fs.readFileSync(packageJsonPath, "utf8"));',
      name: "the project's own manifest",
    },
    {
      code: 'declare const __STATIC_CONTENT_MANIFEST: string;\nexport const manifest = JSON.parse(__STATIC_CONTENT_MANIFEST);',
      name: 'a constant the platform injects',
    },
    {
      code: 'const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));\nconst out = JSON.parse(execSync("gh pr view --json number").toString());',
      filename: 'scripts/release.mjs',
      name: 'a script stops with the SyntaxError, which is its error report',
    },
    { code: 'const data = JSON.parse(readFileSync(file, "utf8"));', filename: 'test/helpers.ts', name: 'test code' },
    {
      code: 'const cfg = JSON.parse(readFileSync(userPath, "utf8"));\nconst flags = JSON.parse(process.env.FLAGS);',
      name: 'files and the environment are only reported with allInputs',
    },
    {
      code: 'function restore(store) {\n  return JSON.parse(store.read());\n}\nexport function summarise(text) {\n  return JSON.parse(text);\n}',
      name: 'text of unknown origin and parameters are only reported with allInputs',
    },
  ],
  invalid: [
    {
      code: "import { readFileSync } from 'node:fs';\nexport function loadConfig(path) {\n  const raw = readFileSync(path, 'utf8');\n  return JSON.parse(raw);\n}",
      options: { allInputs: true },
      name: 'a file read with readFileSync, through a const (allInputs)',
      findings: [
        {
          line: 4,
          title: 'JSON.parse(raw) of external input without try/catch in loadConfig',
          severity: 'medium',
          symbol: 'loadConfig',
          data: { input: 'external' },
        },
      ],
    },
    {
      code: 'app.post("/hook", (req, res) => {\n  const event = JSON.parse(req.body);\n  res.send(event.id);\n});\nws.on("message", (message) => handle(JSON.parse(message.data)));',
      name: 'request bodies and message payloads are network input',
      findings: [
        { line: 2, severity: 'high', data: { input: 'network' } },
        { line: 5, severity: 'high', title: 'JSON.parse(message.data) of network input without try/catch in on callback' },
      ],
    },
    {
      code: 'const flags = JSON.parse(process.env.FLAGS ?? "{}");\nconst saved = JSON.parse(localStorage.getItem("state") as string);\nconst arg = JSON.parse(process.argv[2]);',
      options: { allInputs: true },
      name: 'environment, storage and argv are external input (allInputs)',
      findings: [
        { line: 1, title: 'JSON.parse(process.env.FLAGS ?? "{}") of external input without try/catch in example.ts', data: { input: 'external' } },
        { line: 2, data: { input: 'external' } },
        { line: 3, data: { input: 'external' } },
      ],
    },
    {
      code: 'async function pull(url) {\n  const response = await fetch(url);\n  return JSON.parse(await response.text());\n}',
      name: 'a response body',
      findings: [{ line: 3, severity: 'high', data: { input: 'network' } }],
    },
    {
      code: 'function restore(store) {\n  const state = store.read();\n  return JSON.parse(state);\n}',
      options: { allInputs: true },
      name: 'unknown input: medium with lower confidence',
      findings: [{ line: 3, severity: 'medium', data: { input: 'unknown' } }],
    },
    {
      code: 'export function summarise(text) {\n  return JSON.parse(text);\n}\nconst schema = JSON.parse(readFileSync(new URL("../schema.json", import.meta.url), "utf8")).version;',
      options: { allInputs: true },
      name: 'a parameter and a bundled file are low severity',
      findings: [
        { line: 2, severity: 'low', title: 'JSON.parse(text) of a parameter without try/catch in summarise', data: { input: 'delegated' } },
        { line: 4, severity: 'low', data: { input: 'bundled' } },
      ],
    },
    {
      code: 'function load(raw) {\n  try {\n    setup();\n  } finally {\n    return JSON.parse(raw.body);\n  }\n}\nfunction outer(raw) {\n  try {\n    return () => JSON.parse(raw.value);\n  } catch {}\n}',
      options: { allInputs: true },
      name: 'finally does not guard; a try around a callback definition does not guard the callback',
      findings: [
        { line: 5, data: { input: 'unknown' } },
        { line: 10, data: { input: 'unknown' } },
      ],
    },
    {
      code: 'const onMessage = (e) => JSON.parse(e.data);\nonMessage(first);\ntry {\n  onMessage(second);\n} catch {\n  // ignored\n}',
      name: 'one unguarded caller is enough',
      findings: [{ line: 1, data: { input: 'network' } }],
    },
  ],
});
