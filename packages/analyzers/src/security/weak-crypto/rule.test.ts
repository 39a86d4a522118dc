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
    { code: "const hash = md5(text);\nconst cipher = 'des';", name: 'no crypto call' },
  ],
  invalid: [
    {
      code: "import { createHash } from 'node:crypto';\nexport function hashPassword(password: string) {\n  return createHash('md5').update(password).digest('hex');\n}",
      findings: [{ line: 3, severity: 'high', symbol: 'hashPassword', title: 'MD5 used to protect a secret in hashPassword', data: { algorithm: 'md5', function: 'createHash' } }],
    },
    {
      code: "function etagFor(body: string) {\n  const etag = crypto.createHash('sha1').update(body).digest('base64');\n  return etag;\n}",
      name: 'an ETag is an identifier: medium with low confidence',
      findings: [{ line: 2, severity: 'medium', title: 'SHA-1 hash used as an identifier in etagFor' }],
    },
    {
      code: "const ALGO = 'MD5';\nconst h = crypto.createHash(ALGO);",
      name: 'through a constant, any case',
      findings: [{ line: 2, severity: 'medium', title: 'Weak hash MD5 in example.ts' }],
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
  it('is low when the digest is only an identifier', () => {
    const confidence = (code: string) => runRule(security, 'weak-crypto', { code }).map((f) => f.confidence);
    expect(confidence("const cacheKey = createHash('md5').update(url).digest('hex');")).toEqual([40]);
    expect(confidence("const d = createHash('md5').update(x).digest('hex');")).toEqual([70]);
    expect(confidence("const tokenHash = createHash('sha1').update(token).digest('hex');")).toEqual([90]);
  });
});
