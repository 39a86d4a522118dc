import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('insecure-randomness', {
  valid: [
    {
      code: 'export function login() {\n  const token = Math.random().toString(36);\n  return token;\n}',
      filename: 'examples/auth/login.js',
      name: 'an example is not what ships',
    },
    'const delay = base * 2 ** attempt + Math.random() * 100;',
    { code: 'function randomColor() {\n  return `hsl(${Math.floor(Math.random() * 360)}, 80%, 50%)`;\n}', name: 'colours' },
    { code: 'const tokenExpiry = Date.now() + Math.random() * 1000;', name: 'jitter on an expiry is not the token' },
    { code: 'const id = Math.random().toString(36).slice(2);\nconst requestId = `${Date.now()}-${Math.random()}`;', name: 'plain ids' },
    { code: 'const sessionStorageKey = "k";\nconst x = Math.random();', name: 'a secret word elsewhere in the file' },
    { code: 'const token = crypto.randomBytes(32).toString("hex");', name: 'crypto.randomBytes' },
    { code: 'const cacheKey = `${Math.random()}`;', name: 'a cache key' },
  ],
  invalid: [
    {
      code: 'export function login(user) {\n  const token = Math.random().toString(36).substring(2);\n  return { user, token };\n}',
      filename: 'src/auth.js',
      findings: [{ line: 2, severity: 'info', symbol: 'login', title: 'Math.random() used for a token in login', data: { purpose: 'token' } }],
    },
    {
      code: 'function generatePassword(length: number) {\n  let result = "";\n  for (let i = 0; i < length; i++) result += CHARS[Math.floor(Math.random() * CHARS.length)];\n  return result;\n}',
      name: 'only the function name tells: medium',
      findings: [{ line: 3, severity: 'info', title: 'Math.random() used for a password in generatePassword' }],
    },
    {
      code: 'const createNonce = () => Math.random().toString(16).slice(2);\nsession.resetCode = Math.floor(Math.random() * 1e6);',
      name: 'an arrow result and a qualified name',
      findings: [
        { line: 1, severity: 'info', data: { purpose: 'nonce' } },
        { line: 2, severity: 'info', title: 'Math.random() used for a reset code in example.ts' },
      ],
    },
    {
      code: 'res.cookie("sid", String(Math.random()));\nsetSessionId(Math.random().toString(36));\nconst user = { apiKey: Math.random().toString(36) };',
      name: 'passed to a setter, stored in a property',
      findings: [
        { line: 2, severity: 'info', data: { purpose: 'session id' } },
        { line: 3, severity: 'info', data: { purpose: 'api key' } },
      ],
    },
  ],
});

describe('insecure-randomness confidence', () => {
  it('is lower when only the enclosing function name matches', () => {
    const [viaFunction] = runRule(security, 'insecure-randomness', { code: 'function makeSalt() { let s = ""; s += Math.random(); return s; }' });
    expect(viaFunction.confidence).toBe(60);
    expect(viaFunction.description).toContain('the function `makeSalt`');
  });
});
