// Provider-format keys are assembled at run time so that this file itself holds none (secret
// scanners, including this rule, would rightly report it).
import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

const AWS_KEY = 'AKIA' + 'QX7PLM2ZK4RTV9WN';
const AWS_EXAMPLE = 'AKIA' + 'IOSFODNN7EXAMPLE';
const GITHUB_TOKEN = 'ghp' + '_' + 'R8x2Lk9QmZ4tV7pN1sW3yB6cD0fH5jK8aE2g';
const STRIPE_KEY = 'sk_' + 'live_' + '51HbQ2eKx9Lm3Np7Rt5Vw8Yz';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'svc-billing', iat: 1700000000 })}.Qm9Lx2Zt8KpR4wN7vB1cY6dF3gH5jS0a`;
const SAMPLE_JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1234567890', name: 'John Doe', iat: 1516239022 })}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
const PEM_BEGIN = '-----BEGIN RSA ' + 'PRIVATE KEY-----';
const PEM_END = '-----END RSA ' + 'PRIVATE KEY-----';
const MONGO_URL = 'mongodb+srv://admin' + ':Xk29fLq8Pz@cluster0.acme.mongodb.net/prod';
const PEM_BODY =
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0\nzN7zPxZ4fVg3Yb8Kq2wLmR5sTn6jH9dC1aE0rU4iO7pXyQbZcVxWk3MgNhJfDlAsBeGoCuIt';

new AnalyzerTester(security).run('hard-coded-secret', {
  valid: [
    {
      code: "const siteConfig = {\n  algolia: {\n    apiKey: '500db32fbdbd53a814f42aafdfa26bd4',\n    indexName: 'docs',\n  },\n};",
      filename: 'website/siteConfig.js',
      name: 'an Algolia search-only key is public by design',
    },
    {
      code: "const config = {\n  server: 'localhost',\n  user: 'sa',\n  password: 'S0meVeryHardPassword1',\n};",
      filename: 'scripts/stress.js',
      name: "a local service's login",
    },
    { code: "const POSSIBLE_TOKEN = '[a-z0-9_.-]*[a-z0-9]';", name: "a regular expression's source" },
    'const password = process.env.DB_PASSWORD;',
    {
      code: "const apiKey = 'changeme';\nconst token = 'your-api-token-here';\nconst secret = '<CLIENT_SECRET>';\nconst pwd = 'xxxxxxxxxxxx';",
      name: 'placeholders',
    },
    {
      code: "const passwordField = 'a8Fk2LmQ9xZ7';\nconst tokenUrl = 'https://auth.acme.io/oauth/token';",
      name: 'names that mention a secret without holding one',
    },
    {
      code: "const token = 'access_token';\nconst TOKEN_ENV = 'GITHUB_TOKEN';\nconst secret = 'auth.secret.label';\nconst apiKey = 'x-api-key';",
      name: 'identifiers, env names and message keys',
    },
    { code: "const secret = 'Please enter your secret';\nconst password = 'short1';", name: 'prose and short values' },
    { code: `const key = '${AWS_EXAMPLE}';`, name: "AWS's documented example key" },
    { code: `const token = '${SAMPLE_JWT}';`, name: "jwt.io's sample token" },
    {
      code: "const url = 'postgres://postgres:postgres@localhost:5432/app';\nconst other = 'mysql://app:s3cretPw9@127.0.0.1/app';",
      name: 'local development connection strings',
    },
    {
      code: "const lock = { integrity: 'sha512-Zk9vX2nQ8pL4mR7tW1yB3cE6fH0jK5aS' };\nconst passwordHash = '5f4dcc3b5aa765d61d8327deb882cf99';",
      name: 'hashes',
    },
    { code: "const apiKey = 'a8Fk2LmQ9xZ7pQ4w';", filename: 'src/auth.test.ts', name: 'entropy-based secrets are not reported in tests' },
    { code: "const apiKey = 'a8Fk2LmQ9xZ7pQ4w';", filename: 'examples/basic/client.ts', name: 'nor in example code' },
    { code: 'const url = `postgres://${user}:${password}@${host}/db`;', name: 'a connection string from variables' },
    { code: "const apiKey = 'a8Fk2LmQ9x';", options: { minLength: 12 }, name: 'shorter than minLength' },
    { code: `localStorage.setItem('token', '${JWT}');`, filename: 'src/login.spec.ts', name: 'tokens in tests are signed with test keys' },
    { code: "crypto.createHmac('sha256', key);\njwt.sign(payload, 'changeme-secret');", name: 'keys from variables and placeholder keys' },
  ],
  invalid: [
    {
      code: "const config = {\n  server: 'db.internal.example.net',\n  user: 'sa',\n  password: 'S0meVeryHardPassword1',\n};\nconst search = { apiKey: '500db32fbdbd53a814f42aafdfa26bd4' };",
      filename: 'src/db.js',
      name: "a remote service's login, and an API key outside an Algolia block",
      findings: [
        { line: 4, severity: 'high' },
        { line: 6, severity: 'high' },
      ],
    },
    {
      code: `export const config = {\n  region: 'eu-west-1',\n  accessKeyId: '${AWS_KEY}',\n};`,
      filename: 'src/config.ts',
      findings: [{ line: 3, severity: 'critical', title: 'Hard-coded AWS access key in config.ts', data: { format: 'aws-access-key', illustrative: false } }],
    },
    {
      code: `function deploy() {\n  // token: ${GITHUB_TOKEN}\n  return push();\n}`,
      name: 'a GitHub token in a comment',
      findings: [{ line: 2, severity: 'critical', symbol: 'deploy', title: 'Hard-coded GitHub token in example.ts' }],
    },
    {
      code: `const stripeKey = '${STRIPE_KEY}';`,
      name: 'a known format is reported once, not again as a generic secret',
      findings: [{ line: 1, title: 'Hard-coded Stripe live secret key in example.ts' }],
    },
    {
      code: "const dbPassword = 'Tr0ub4dor&3xyz';\nconst settings = { apiKey: process.env.API_KEY || 'a8Fk2LmQ9xZ7pQ4w' };",
      name: 'generic secrets, including an environment fallback',
      findings: [
        { line: 1, severity: 'high', title: 'Hard-coded secret in `dbPassword` in example.ts', data: { format: 'generic', length: 14 } },
        { line: 2, severity: 'high', title: 'Hard-coded secret in `apiKey` in example.ts' },
      ],
    },
    {
      code: "class Client {\n  private clientSecret = '9fQ2xLm7Kp4Rz8Tw';\n  headers = { Authorization: 'Bearer Zx8Kq2Lm9Pw4Rt7N' };\n}",
      name: 'class fields and a bearer header',
      findings: [
        { line: 2, symbol: 'Client', title: 'Hard-coded secret in `clientSecret` in example.ts' },
        { line: 3, symbol: 'Client', title: 'Hard-coded secret in `Authorization` in example.ts' },
      ],
    },
    {
      code: "const mac = crypto.createHmac('sha256', 'pa4qacea4VK9t9nGv7yZtwmj');\nconst t = jwt.sign(payload, 'Zx8Kq2Lm9Pw4Rt7N', { expiresIn: '1h' });\njwt.verify(token, process.env.JWT_SECRET);",
      name: 'keys passed by position',
      findings: [
        { line: 1, severity: 'high', title: 'Hard-coded HMAC key in example.ts', data: { format: 'key-argument' } },
        { line: 2, title: 'Hard-coded JWT signing key in example.ts' },
      ],
    },
    {
      code: `const serviceToken = '${JWT}';`,
      name: 'a JSON Web Token',
      findings: [{ line: 1, severity: 'high', data: { format: 'jwt' } }],
    },
    {
      code: `const key = \`${PEM_BEGIN}\n${PEM_BODY}\n${PEM_END}\`;\nsign(key);`,
      name: 'a PEM private key over several lines',
      findings: [{ line: 1, endLine: 4, severity: 'critical', title: 'Hard-coded private key in example.ts' }],
    },
    {
      code: `export const MONGO_URL = '${MONGO_URL}';`,
      name: 'a connection string with a password',
      findings: [{ line: 1, severity: 'high', title: 'Hard-coded password in a connection string in example.ts' }],
    },
    {
      code: `const fixtureKey = '${AWS_KEY}';`,
      filename: 'src/__tests__/upload.ts',
      kind: 'test',
      name: 'a live-format key in a test is reported at lower severity',
      findings: [{ line: 1, severity: 'medium', data: { illustrative: true } }],
    },
  ],
});

describe('hard-coded-secret reports without repeating the secret', () => {
  it('masks the value and lowers confidence in tests', () => {
    const [source] = runRule(security, 'hard-coded-secret', { code: `const k = '${AWS_KEY}';` });
    expect(source.description).toContain('AKIA… (20 characters)');
    expect(source.description).not.toContain(AWS_KEY);
    expect(source.confidence).toBe(95);
    const [test] = runRule(security, 'hard-coded-secret', { code: `const k = '${AWS_KEY}';`, filename: 'src/a.spec.ts' });
    expect(test.confidence).toBe(65);
    expect(test.description).toContain('test code');
  });
});

describe('hard-coded-secret redaction', () => {
  it('never carries the secret in the finding snippet', () => {
    const code = `const client = new S3({ accessKeyId: '${AWS_KEY}' });\nconst apiToken = '${GITHUB_TOKEN}';\n`;
    const findings = runRule(security, 'hard-coded-secret', { code, filename: 'src/storage.ts' });
    expect(findings.length).toBeGreaterThanOrEqual(2);
    for (const f of findings) {
      expect(f.anchor.codeSnippet).not.toContain(AWS_KEY);
      expect(f.anchor.codeSnippet).not.toContain(GITHUB_TOKEN);
      expect(f.description).not.toContain(AWS_KEY);
    }
    expect(findings.map((f) => f.anchor.codeSnippet).join('\n')).toContain("accessKeyId: 'AKIA************'");
  });
});
