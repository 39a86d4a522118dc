import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('weak-crypto', {
  valid: [
    "import { createHash } from 'node:crypto';\nconst digest = createHash('sha256').update(data).digest('hex');",
    { code: "crypto.createHmac('sha1', key).update(body).digest('hex');", name: 'HMAC-SHA-1 is not a collision problem' },
    { code: "const c = crypto.createCipheriv('aes-256-gcm', key, iv);", name: 'AES-GCM' },
    { code: 'const h = crypto.createHash(algorithm);', name: 'an algorithm chosen elsewhere' },
    { code: "await crypto.subtle.digest('SHA-256', bytes);", name: 'WebCrypto SHA-256' },
    {
      code: "function etagFor(body: string) {\n  const etag = crypto.createHash('sha1').update(body).digest('base64');\n  return etag;\n}",
      name: 'an ETag is an identifier, not a security use',
    },
    {
      code: "const generate = (body) => crypto.subtle.digest({ name: 'SHA-1' }, body);",
      filename: 'src/middleware/etag/index.ts',
      name: 'an ETag generator whose purpose only the folder names',
    },
    {
      code: "async function acceptKey(key) {\n  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(key + GUID));\n  return btoa(String.fromCharCode(...new Uint8Array(digest)));\n}",
      name: "the WebSocket handshake's protocol-fixed SHA-1",
    },
    { code: "const cacheKey = createHash('md5').update(url).digest('hex');", name: 'a cache key' },
    { code: "const d = createHash('md5').update(x).digest('hex');", name: 'a digest whose purpose the names do not tell' },
    { code: "const hash = md5(text);\nconst cipher = 'des';", name: 'no crypto call' },
  ],
  invalid: [
    {
      code: "import { createHash } from 'node:crypto';\nexport function hashPassword(password: string) {\n  return createHash('md5').update(password).digest('hex');\n}",
      findings: [
        {
          line: 3,
          severity: 'high',
          symbol: 'hashPassword',
          title: 'MD5 used to protect a secret in hashPassword',
          data: { algorithm: 'md5', function: 'createHash' },
        },
      ],
    },
    {
      code: "const ALGO = 'MD5';\nconst passwordHash = crypto.createHash(ALGO);",
      name: 'through a constant, any case',
      findings: [{ line: 2, severity: 'high', title: 'MD5 used to protect a secret in example.ts' }],
    },
    {
      code: "function createNTLMHash(password) {\n  const md4sum = crypto.createHash('md4');\n  md4sum.update(Buffer.from(password, 'ucs2'));\n  return md4sum.digest();\n}",
      name: 'a parameter of the function names what is hashed',
      findings: [{ line: 2, severity: 'high', title: 'MD4 used to protect a secret in createNTLMHash' }],
    },
    {
      code: "export function digestOf(input: string) {\n  return createHash('sha1').update(input).digest('hex');\n}",
      filename: 'src/auth/password.ts',
      name: 'a file named for what it protects',
      findings: [{ line: 2, severity: 'high' }],
    },
    {
      code: "const cipher = crypto.createCipher('aes-256-cbc', password);\nconst d = crypto.createDecipher('aes-256-cbc', password);",
      name: 'the deprecated createCipher',
      findings: [
        { line: 1, severity: 'high', title: 'Deprecated crypto.createCipher() in example.ts', data: { algorithm: 'aes-256-cbc' } },
        { line: 2, severity: 'high', title: 'Deprecated crypto.createDecipher() in example.ts' },
      ],
    },
    {
      code: "crypto.createCipheriv('aes-128-ecb', key, null);\ncrypto.createCipheriv('des-cbc', key, iv);\ncrypto.createDecipheriv('rc4', key, '');\ncrypto.createCipheriv('des-ede3-cbc', key, iv);\ncrypto.createCipheriv('bf-cbc', key, iv);",
      name: 'ECB, DES, RC4, 3DES and Blowfish',
      findings: [
        { line: 1, severity: 'high', title: 'Insecure cipher aes-128-ecb in example.ts' },
        { line: 2, severity: 'high', title: 'Insecure cipher des-cbc in example.ts' },
        { line: 3, severity: 'high' },
        { line: 4, severity: 'medium', title: 'Legacy cipher des-ede3-cbc in example.ts' },
        { line: 5, severity: 'medium' },
      ],
    },
    {
      code: "async function sign(data) {\n  return crypto.subtle.digest({ name: 'SHA-1' }, data);\n}",
      filename: 'src/sign.js',
      name: 'WebCrypto SHA-1 for a signature',
      findings: [{ line: 2, severity: 'high', title: 'SHA-1 used to protect a secret in sign' }],
    },
  ],
});

describe('weak-crypto confidence', () => {
  it('reports a weak hash only where it protects something', () => {
    const confidence = (code: string) => runRule(security, 'weak-crypto', { code }).map((f) => f.confidence);
    expect(confidence("const cacheKey = createHash('md5').update(url).digest('hex');")).toEqual([]);
    expect(confidence("const tokenHash = createHash('sha1').update(token).digest('hex');")).toEqual([90]);
  });
});
