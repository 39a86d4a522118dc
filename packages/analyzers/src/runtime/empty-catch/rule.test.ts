import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('empty-catch', {
  valid: [
    { code: 'try {\n  run();\n} catch (error) {\n  log(error);\n}', name: 'the error is handled' },
    { code: 'try {\n  run();\n} catch {\n  // Best effort: the cache is rebuilt on the next start.\n}', name: 'a comment explains the empty block' },
    { code: 'function f() {\n  try {\n    return parse();\n  } catch {\n    return undefined;\n  }\n}', name: 'an explicit fallback value' },
    { code: 'try {\n  run();\n} catch (ignored) {}', name: 'a binding named to say it is ignored' },
    { code: 'try {\n  run();\n} catch (_err) {}\ntry {\n  run();\n} catch (_) {}', name: 'underscore-prefixed bindings are unused on purpose' },
    { code: 'let recursive = true;\ntry {\n  recursive = isRecursive(schema);\n} catch {}', name: 'a default kept when the assignment fails' },
    {
      code: "let convert;\ntry {\n  convert = require('encoding').convert;\n} catch (e) {}\ntry {\n  require('source-map-support/register');\n} catch (e) {}",
      name: 'optional dependencies probed with require',
    },
    { code: 'save().catch((error) => report(error));', name: 'the rejection is handled' },
    { code: 'save().catch(() => {\n  // Offline: retried by the sync loop.\n});', name: 'a commented rejection handler' },
    {
      code: 'async function f() {\n  const real = await realpath(p).catch(() => undefined);\n  return real ?? p;\n}',
      name: 'a fallback value that the code checks',
    },
    { code: 'function f() {\n  return load().then(parse, () => undefined);\n}', name: 'a returned chain with a fallback' },
    {
      code: 'async function f() {\n  const pending = load();\n  pending.catch(() => {});\n  await prepare();\n  return await pending;\n}',
      name: 'silencing an early rejection of a promise awaited later',
    },
    { code: 'save().catch(() => null);', name: 'null is a deliberate replacement value' },
    { code: 'const text = "x.catch(() => {})";', name: 'inside a string' },
    {
      code: 'function fail(connection, err) {\n  connection.close().catch(function (e) {});\n  for (const socket of sockets) {\n    try {\n      socket.disconnect();\n    } catch (e) {}\n  }\n  throw err;\n}',
      name: 'a best-effort cleanup (close, disconnect) of something already failing',
    },
    {
      code: "await fs.mkdir('./temp').catch(() => {});\ntry {\n  schema.parse(bad);\n} catch {}",
      filename: 'scripts/sponsors.js',
      name: 'a script or benchmark',
    },
    {
      code: 'function castToError(err) {\n  try {\n    if (isErrorLike(err)) {\n      const error = new Error(err.message);\n      return error;\n    }\n  } catch {}\n  return new Error(String(err));\n}',
      name: 'a try whose if returns, then the next way of building the value',
    },
    {
      code: 'function decoder(charset) {\n  if (charset) {\n    try {\n      return new TextDecoder(charset);\n    } catch {}\n  }\n  return new TextDecoder();\n}',
      name: 'a try ending an if block, with the fallback after the if',
    },
    { code: 'function stop(reader) {\n  void reader.cancel().catch(() => undefined);\n}', name: 'a chain discarded with void on purpose' },
    { code: 'try {\n  node.focus();\n} catch (e) {}', filename: 'docs/assets/javascripts/react.js', name: 'a docs site and its vendored assets' },
    { code: 'function f() {\n  try {\n    run();\n  } catch (e) {\n    return;\n  }\n  next();\n}', name: 'a catch that returns is not empty' },
    {
      code: 'function decoder(charset) {\n  try {\n    return new TextDecoder(charset);\n  } catch {}\n  return new TextDecoder();\n}',
      name: 'a try that returns falls through to the fallback after it',
    },
    {
      code: 'function isDir(path) {\n  let dir;\n  try {\n    const stats = statSync(path);\n    dir = stats.isDirectory();\n  } catch (e) {}\n  return dir;\n}',
      name: 'declarations then one assignment: the value set before is the fallback',
    },
    {
      code: "let ts = false;\ntry {\n  if (require.resolve('esbuild-runner')) require('esbuild-runner/register');\n  ts = true;\n} catch {}",
      name: 'an optional module probed with require.resolve',
    },
    {
      code: 'async function f() {\n  try {\n    await cleanup;\n    // eslint-disable-next-line no-empty\n  } catch (e) {}\n  throw error;\n}',
      name: 'a no-empty suppression or a comment closing the try block explains the empty catch',
    },
    {
      code: 'function f() {\n  // Avoid unhandled rejections: the error is reported through the observer.\n  observer.fetch().catch(() => {});\n  mutate(args).catch(noop);\n}',
      name: 'a comment above the statement, or a handler named noop, says it is on purpose',
    },
    {
      code: 'class Stream {\n  constructor() {\n    this.#ended.catch(() => undefined);\n  }\n}\nfunction cancel() {\n  pending ??= reader.cancel();\n  pending.catch(() => undefined);\n}',
      name: 'a promise kept in a field or an outer variable, awaited elsewhere',
    },
    {
      code: 'async function race(body) {\n  const read = body.text();\n  void read.finally(clear).catch(() => undefined);\n  return await read;\n}',
      name: 'a derived .finally() chain of a promise awaited later',
    },
  ],
  invalid: [
    {
      code: 'export async function load(url) {\n  try {\n    return await fetch(url);\n  } catch (e) {}\n}',
      name: 'a try that returns with no fallback after it: the function silently returns undefined',
      findings: [{ line: 4 }],
    },
    {
      code: 'async function save(connection, row) {\n  connection.insert(row).catch(() => {});\n  try {\n    await connection.update(row);\n  } catch (e) {}\n}',
      name: 'the same shapes around work that is not cleanup',
      findings: [{ line: 2 }, { line: 5 }],
    },
    {
      code: 'export function load() {\n  try {\n    read();\n    parse();\n  } catch (error) {}\n}',
      name: 'an empty catch block',
      findings: [
        {
          line: 5,
          title: 'Empty catch (error) block swallows errors in load',
          severity: 'info',
          symbol: 'load',
          data: { handler: 'catch-block', commented: false },
        },
      ],
    },
    {
      code: 'try {\n  run();\n} catch {}\ntry {\n  value = await load();\n  ready = true;\n} catch (e) {}',
      name: 'optional binding at module level; more than one assignment is not a fallback probe',
      findings: [
        { line: 3, title: 'Empty catch block swallows errors in example.ts' },
        { line: 7, title: 'Empty catch (e) block swallows errors in example.ts' },
      ],
    },
    {
      code: 'function probe() {\n  try {\n    run();\n    report();\n  } catch (e) {}\n  try {\n    run();\n    report();\n  } catch {}\n}',
      name: '`catch {}` and `catch (e) {}` alike',
      findings: [
        { line: 5, title: 'Empty catch (e) block swallows errors in probe' },
        { line: 9, title: 'Empty catch block swallows errors in probe' },
      ],
    },
    {
      code: 'class Monitor {\n  async update() {\n    try {\n      const info = await fetchInfo();\n      if (info.changed) await save(info);\n    } catch {}\n  }\n}',
      name: 'a try with real work and a fallback of nothing, in a method',
      findings: [{ line: 6, title: 'Empty catch block swallows errors in Monitor.update' }],
    },
    {
      code: 'function f() {\n  try {\n    const out = compute();\n    return out;\n  } catch (e) {}\n  try {\n    return compute();\n    // unreachable\n  } finally {}\n  try {\n    a();\n    b = 1;\n  } catch {}\n}',
      name: 'an assignment after work that may fail half-way is no fallback probe',
      findings: [{ line: 13, title: 'Empty catch block swallows errors in f' }],
    },
    {
      code: 'try {\n  run();\n} catch {\n  // ignore\n}',
      options: { allowComments: false },
      name: 'commented blocks are reported as info when comments are not accepted',
      findings: [{ line: 3, endLine: 5, severity: 'info', data: { commented: true } }],
    },
    {
      code: 'function f() {\n  save().catch(() => {});\n  load().catch(function () {});\n  ping().then(ok, () => undefined);\n  const local = sync();\n  local.finally(done).catch(() => {});\n  send().catch(() => void 0);\n}',
      name: 'empty promise rejection handlers whose chain value is dropped',
      findings: [
        { line: 2, title: 'Promise rejection swallowed by .catch(() => {}) in f', symbol: 'f', data: { handler: 'catch' } },
        { line: 3, title: 'Promise rejection swallowed by .catch(function () {}) in f' },
        { line: 4, title: 'Promise rejection swallowed by .then(…, () => undefined) in f', data: { handler: 'then' } },
        { line: 6, title: 'Promise rejection swallowed by .catch(() => {}) in f' },
        { line: 7, title: 'Promise rejection swallowed by .catch(() => void 0) in f' },
      ],
    },
    {
      code: 'async function f() {\n  await save().catch(() => {});\n}',
      name: 'awaited but the value is discarded',
      findings: [{ line: 2, title: 'Promise rejection swallowed by .catch(() => {}) in f' }],
    },
  ],
});
