import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('command-injection', {
  valid: [
    { code: "import { exec } from 'node:child_process';\nexec('git status');", name: 'a literal command' },
    { code: "import { execSync } from 'child_process';\nconst CMD = 'npm ci';\nexecSync(CMD);\nexecSync(`git log -n ${10}`);", name: 'constants and numbers' },
    {
      code: "import { execFile } from 'node:child_process';\nexport function show(ref: string) {\n  execFile('git', ['show', ref]);\n}",
      name: 'execFile without a shell passes arguments safely',
    },
    {
      code: "import { spawn } from 'node:child_process';\nfunction run(args: string[]) {\n  spawn('node', args, { shell: false });\n}",
      name: 'spawn with shell: false',
    },
    { code: "import { exec } from './db.js';\nfunction q(sql: string) { return exec(`SELECT ${sql}`); }", name: 'an exec that is not child_process' },
    { code: "const cp = require('child_process');\ncp.execSync(`node ${__dirname}/build.js`);", filename: 'src/a.js', name: '__dirname is not outside input' },
    {
      code: "import { exec } from 'node:child_process';\nimport { quote } from 'shell-quote';\nfunction run(file: string) { exec(`cat ${quote([file])}`); }",
      name: 'a quoted value',
    },
    { code: 'function exec(cmd) { return cmd; }\nexec(`rm ${x}`);', filename: 'src/b.js', name: 'no child_process import' },
    {
      code: "import { execSync } from 'node:child_process';\nasync function installChromium(executablePath) {\n  return execSync(executablePath + ' --version').toString();\n}\nexport const start = () => installChromium('/usr/bin/chromium');",
      filename: 'src/browser.js',
      name: "a parameter of a function the module does not export: its callers are the module's own code",
    },
    {
      code: "import { execSync } from 'node:child_process';\nconst now = new Date();\nexecSync(`git log --since=${now.toISOString().slice(0, 10)}`);",
      filename: 'src/log.js',
      name: 'a piece cut out of a date',
    },
    {
      code: "import { execSync } from 'node:child_process';\nexport function tagRef(tag) {\n  return execSync(`git show-ref refs/tags/${tag}`).toString();\n}\nexecSync(`gh pr checkout ${process.argv[2]}`);",
      filename: 'scripts/release.js',
      name: "a maintainer's script builds commands from the repository's own state and its own arguments",
    },
  ],
  invalid: [
    {
      code: "import { execSync } from 'node:child_process';\nexport function tagRef(tag) {\n  return execSync(`git show-ref refs/tags/${tag}`).toString();\n}",
      filename: 'src/git.js',
      name: 'the same command in production code',
      findings: [{ line: 3, severity: 'high' }],
    },
    {
      code: "import { exec } from 'node:child_process';\napp.get('/ping', (req, res) => exec(`ping -c 1 ${req.query.host}`));",
      filename: 'scripts/dev-server.js',
      name: 'request input counts in scripts too',
      findings: [{ line: 2, severity: 'critical' }],
    },
    {
      code: "import { exec } from 'node:child_process';\nexport function checkout(branch: string) {\n  exec(`git checkout ${branch}`);\n}",
      findings: [
        {
          line: 3,
          severity: 'high',
          symbol: 'checkout',
          title: 'exec() runs a shell command built from `branch` in checkout',
          data: { builtBy: 'template', requestInput: false },
        },
      ],
    },
    {
      code: "const { execSync: run } = require('child_process');\nexports.build = function build(dir) {\n  const cmd = 'make -C ' + dir;\n  run(cmd);\n}",
      filename: 'src/build.js',
      name: 'a renamed destructured require and a local variable',
      findings: [{ line: 4, severity: 'high', data: { function: 'execSync', builtBy: 'concatenation' } }],
    },
    {
      code: "import * as cp from 'child_process';\napp.get('/ping', (req, res) => {\n  cp.exec('ping -c 1 ' + req.query.host, (err, out) => res.send(out));\n});",
      name: 'request input is critical',
      findings: [{ line: 3, severity: 'critical', symbol: 'get callback', data: { requestInput: true } }],
    },
    {
      code: "import { spawn } from 'node:child_process';\nexport function run(file: string) {\n  spawn('convert', [file, 'out.png'], { shell: true });\n}",
      name: 'spawn with shell: true and a dynamic argument',
      findings: [{ line: 3, severity: 'medium', data: { function: 'spawn', builtBy: 'variable' } }],
    },
    {
      code: "import { exec } from 'node:child_process';\nimport { promisify } from 'node:util';\nconst execAsync = promisify(exec);\nexport async function run(command: string) {\n  return execAsync(command);\n}",
      name: 'a promisified exec given a parameter',
      findings: [{ line: 5, severity: 'medium', title: 'exec() runs a shell command built from `command` in run' }],
    },
    {
      code: "require('child_process').execSync(`tar xzf ${archive}`);\nimport shell from 'shelljs';\nshell.exec('ls ' + dir);",
      filename: 'src/c.js',
      name: 'require(...).execSync and shelljs',
      findings: [
        { line: 1, severity: 'high' },
        { line: 3, severity: 'high', data: { module: 'shelljs' } },
      ],
    },
    {
      code: "import { execFileSync } from 'node:child_process';\nexecFileSync(`${tool} --version`, { shell: process.platform === 'win32' });",
      name: 'a shell on some platforms',
      findings: [{ line: 2, severity: 'high' }],
    },
  ],
});

describe('command-injection confidence', () => {
  it('is less sure about a bare variable and a conditional shell than about a template', () => {
    const confidence = (code: string) => runRule(security, 'command-injection', { code }).map((f) => f.confidence);
    expect(confidence("import { exec } from 'child_process';\nexec(`ls ${dir}`);")).toEqual([85]);
    expect(confidence("import { exec } from 'child_process';\nexec(dir);")).toEqual([60]);
    expect(confidence("import { execFile } from 'child_process';\nexecFile(`ls ${dir}`, { shell: isWindows });")).toEqual([70]);
    expect(confidence("import { exec } from 'child_process';\nexec(`ls ${req.params.dir}`);")).toEqual([90]);
  });
});
