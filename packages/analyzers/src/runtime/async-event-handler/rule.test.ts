import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('async-event-handler', {
  valid: [
    {
      code: "/**\n * Mock Service Worker.\n * - Please do NOT modify this file.\n */\nself.addEventListener('message', async (event) => {\n  const client = await self.clients.get(event.source.id);\n});",
      filename: 'public/mockServiceWorker.js',
      name: 'a generated copy that must not be edited',
    },
    {
      code: "const a = <button onClick={async () => {\n  await query.refetch();\n  reset();\n}} />;\nconst b = <a onMouseEnter={async () => {\n  await queryClient.prefetchQuery({ queryKey: ['x'], queryFn });\n}} />;",
      filename: 'src/app.tsx',
      name: 'TanStack Query methods that never reject',
    },
    {
      code: "socket.on('message', async (data) => {\n  try {\n    await handle(data);\n  } catch (error) {\n    log(error);\n  }\n});",
      name: 'every await inside try/catch',
    },
    { code: "emitter.on('tick', async () => {\n  await save().catch(report);\n});", name: 'the awaited promise handles its own rejection' },
    { code: "button.addEventListener('click', async () => {\n  await Promise.allSettled(jobs);\n});", name: 'allSettled never rejects' },
    { code: "emitter.on('tick', async () => {\n  render();\n});", name: 'no await' },
    { code: "emitter.on('tick', () => {\n  save().catch(report);\n});", name: 'not async' },
    { code: "items.map(async (item) => {\n  await save(item);\n});\nrouter.get('/x', async () => {\n  await load();\n});", name: 'not an event registration' },
    { code: 'emitter.on(async () => {\n  await x();\n});', name: 'the first argument is the event name, not a handler' },
    {
      code: "emitter.on('tick', async () => {\n  const later = async () => {\n    await x();\n  };\n  try {\n    await later();\n  } catch {\n    // reported elsewhere\n  }\n});",
      name: 'awaits of nested functions belong to them',
    },
  ],
  invalid: [
    {
      code: 'const b = <button onClick={async () => {\n  await query.fetch();\n  reset();\n}} />;',
      filename: 'src/app.tsx',
      name: 'a method that can reject',
      findings: [{ line: 1 }],
    },
    {
      code: "export function connect(ws) {\n  ws.on('message', async (raw) => {\n    const msg = parse(raw);\n    await store.save(msg);\n    await notify(msg);\n  });\n}",
      name: 'an emitter handler with uncovered awaits',
      findings: [
        {
          line: 2,
          endLine: 6,
          title: "Async 'message' handler on ws can reject unhandled in connect",
          severity: 'medium',
          symbol: 'connect',
          data: { handler: "'message' handler on ws", uncoveredAwaits: 2 },
        },
      ],
    },
    {
      code: "process.on('SIGTERM', async () => {\n  await server.close();\n  process.exit(0);\n});",
      name: 'process-level handlers are high',
      findings: [{ line: 1, severity: 'high', title: "Async 'SIGTERM' handler on process can reject unhandled in example.ts" }],
    },
    {
      code: "window.addEventListener('load', async function () {\n  try {\n    await init();\n  } finally {\n    done();\n  }\n});\nemitter.once(EVENT, async () => {\n  for await (const chunk of stream) use(chunk);\n});",
      name: 'finally is not a catch; for await counts; a non-literal event name',
      findings: [
        { line: 1, title: "Async 'load' handler on window can reject unhandled in example.ts" },
        { line: 8, title: 'Async EVENT handler on emitter can reject unhandled in example.ts' },
      ],
    },
    {
      code: 'function poll() {\n  setInterval(async () => {\n    await refresh();\n  }, 1000);\n  ws.onmessage = async (event) => {\n    await apply(event.data);\n  };\n}',
      name: 'timer callbacks and on… handler properties',
      findings: [
        { line: 2, title: 'Async setInterval callback can reject unhandled in poll' },
        { line: 5, title: 'Async ws.onmessage handler can reject unhandled in poll' },
      ],
    },
    {
      code: 'export function SaveButton({ form }) {\n  return <button onClick={async () => { await form.submit(); }}>Save</button>;\n}',
      filename: 'src/save-button.tsx',
      name: 'a JSX on… prop',
      findings: [{ line: 2, title: 'Async onClick handler can reject unhandled in SaveButton', symbol: 'SaveButton' }],
    },
  ],
});
