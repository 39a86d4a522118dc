import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('tls-verification-disabled', {
  valid: [
    {
      code: "// See https://github.com/example/issues/1\nprocess.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';\nconst options = { host: process.env.HOST || '127.0.0.1', port: 3001 };\nhttps.request(options, onResponse).end();",
      filename: 'src/healthcheck.js',
      name: 'a healthcheck of its own server on the loopback address',
    },
    {
      code: 'request.defaults({ proxy: "http://127.0.0.1:9182", strictSSL: false });',
      filename: 'examples/cdn/dom.js',
      name: 'an example talking to a local proxy',
    },
    "const agent = new https.Agent({ ca: readFileSync('ca.pem') });",
    {
      code: "const agent = new https.Agent({ rejectUnauthorized: process.env.NODE_ENV === 'production' });",
      name: 'a condition is a decision, not a literal off switch',
    },
    { code: 'const options = { rejectUnauthorized: true, strictSSL: true };', name: 'explicitly on' },
    { code: "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '1';", name: 'turning it back on' },
    { code: 'const flags = { insecure: true };\nrender({ insecure: true });', name: '`insecure` outside HTTPS options' },
    { code: 'const tls = { checkServerIdentity: (host, cert) => verifyPin(host, cert) };', name: 'a real identity check' },
  ],
  invalid: [
    {
      code: "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';\nconst local = { host: 'localhost' };\nfetch('https://api.example.com/v1/items');",
      filename: 'src/client.js',
      name: 'loopback mentioned, but a remote https address too',
      findings: [{ line: 1 }],
    },
    {
      code: "import https from 'node:https';\nexport function client() {\n  return new https.Agent({\n    rejectUnauthorized: false,\n  });\n}",
      findings: [{ line: 4, severity: 'high', symbol: 'client', title: 'TLS certificate verification disabled in client' }],
    },
    {
      code: "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';\nprocess.env['NODE_TLS_REJECT_UNAUTHORIZED'] = 0;",
      name: 'the process-wide switch is critical',
      findings: [
        { line: 1, severity: 'critical' },
        { line: 2, severity: 'critical' },
      ],
    },
    {
      code: "request({ url, strictSSL: false });\nconst agent = new Agent({ insecure: true });\nspawn('node', ['x.js'], { env: { ...process.env, NODE_TLS_REJECT_UNAUTHORIZED: '0' } });",
      name: 'strictSSL, an insecure agent, a child environment',
      findings: [
        { line: 1, severity: 'high' },
        { line: 2, severity: 'high' },
        { line: 3, severity: 'high' },
      ],
    },
    {
      code: 'https.globalAgent.options.rejectUnauthorized = false;\nopts.rejectUnauthorized = !1;\nconst t = tls.connect({ host, checkServerIdentity: () => undefined });',
      name: 'assignments and a no-op identity check',
      findings: [
        { line: 1, severity: 'critical' },
        { line: 2, severity: 'high' },
        { line: 3, severity: 'high' },
      ],
    },
  ],
});

describe('tls-verification-disabled description', () => {
  it('says what was switched off', () => {
    const [finding] = runRule(security, 'tls-verification-disabled', { code: 'const o = { rejectUnauthorized: false };' });
    expect(finding.description).toContain('sets `rejectUnauthorized: false`');
    expect(finding.confidence).toBe(90);
  });
});
