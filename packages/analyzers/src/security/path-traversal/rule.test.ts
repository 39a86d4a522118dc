import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('path-traversal', {
  valid: [
    { code: "import fs from 'node:fs';\nfs.readFileSync(path.join(__dirname, 'template.html'));", name: 'no request input' },
    {
      code: "import { readFile } from 'node:fs/promises';\napp.get('/f', async (req, res) => {\n  const name = path.basename(req.params.name);\n  res.send(await readFile(path.join(ROOT, name)));\n});",
      name: 'basename on the way',
    },
    {
      code: "app.get('/f', async (req, res) => {\n  const full = path.resolve(ROOT, req.query.file);\n  if (!full.startsWith(ROOT + path.sep)) return res.sendStatus(403);\n  res.send(await fs.promises.readFile(full));\n});",
      name: 'a containment check in the function',
    },
    { code: "app.get('/d/:name', (req, res) => res.sendFile(req.params.name, { root: PUBLIC_DIR }));", name: "Express's root option" },
    {
      code: "app.get('/x', (req, res) => {\n  const data = fs.readFileSync(CONFIG_PATH);\n  res.json({ data, user: req.query.user });\n});",
      name: 'request input elsewhere in the handler',
    },
    {
      code: "app.post('/u', upload.single('f'), (req, res) => {\n  fs.createReadStream(req.file.path).pipe(res);\n});",
      name: "multer's stored path is the server's",
    },
    { code: 'function load(file: string) {\n  return fs.readFileSync(file);\n}\nload(req.query.file);', name: 'across functions is out of scope' },
  ],
  invalid: [
    {
      code: "import fs from 'node:fs';\napp.get('/files', (req, res) => {\n  const data = fs.readFileSync(`./uploads/${req.query.name}`);\n  res.send(data);\n});",
      findings: [
        {
          line: 3,
          severity: 'high',
          symbol: 'get callback',
          title: 'Path from `req.query.name` reaches fs.readFileSync() in get callback',
          data: { viaVariables: 0 },
        },
      ],
    },
    {
      code: "import { unlink } from 'node:fs/promises';\nexport async function remove(req, res) {\n  const { file } = req.body;\n  const target = path.join(UPLOADS, file);\n  await unlink(target);\n}",
      filename: 'src/remove.js',
      name: 'through a destructured and a derived variable',
      findings: [{ line: 5, severity: 'high', symbol: 'remove', data: { viaVariables: 2 } }],
    },
    {
      code: "export default defineEventHandler(async (event) => {\n  const name = getRouterParam(event, 'name');\n  return fs.createReadStream(join(DATA_DIR, name));\n});",
      name: 'h3 router parameters',
      findings: [{ line: 3, titleIncludes: 'reaches fs.createReadStream()' }],
    },
    {
      code: "app.post('/u', (req, res) => {\n  fs.writeFileSync(path.join(UPLOADS, req.files.avatar.name), req.files.avatar.data);\n});",
      name: 'the client-chosen name of an upload',
      findings: [{ line: 2, titleIncludes: 'Path from `req.files.avatar.name` reaches fs.writeFileSync()' }],
    },
    {
      code: "router.get('/download', (req, res) => {\n  res.download(req.query.path);\n});\nrouter.post('/move', (req, res) => {\n  fse.move(TMP, req.body.to);\n});",
      name: 'res.download and the second path of move',
      findings: [
        { line: 2, titleIncludes: 'reaches res.download()' },
        { line: 5, titleIncludes: 'reaches fse.move()' },
      ],
    },
  ],
});

describe('path-traversal confidence', () => {
  it('is higher for direct request input than through variables', () => {
    const confidence = (code: string) => runRule(security, 'path-traversal', { code }).map((f) => f.confidence);
    expect(confidence("app.get('/', (req, res) => fs.readFile(req.params.p, cb));")).toEqual([85]);
    expect(confidence("app.get('/', (req, res) => { const p = req.params.p; fs.readFile(p, cb); });")).toEqual([75]);
  });
});
