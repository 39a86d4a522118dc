// The `security` analyzer: injection sinks, secrets, weak cryptography and unsafe defaults in TS/JS.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { commandInjection } from './command-injection/rule.js';
import { detectSecurity } from './detect.js';
import { hardCodedSecret } from './hard-coded-secret/rule.js';
import { insecureRandomness } from './insecure-randomness/rule.js';
import { noEval } from './no-eval/rule.js';
import { pathTraversal } from './path-traversal/rule.js';
import { prototypePollution } from './prototype-pollution/rule.js';
import { sqlInjection } from './sql-injection/rule.js';
import { tlsVerificationDisabled } from './tls-verification-disabled/rule.js';
import { weakCrypto } from './weak-crypto/rule.js';

export const security = defineAnalyzer({
  id: 'security',
  description:
    'Finds code injection, command and SQL injection, hard-coded secrets, weak cryptography, insecure randomness, disabled TLS verification, path traversal and prototype pollution',
  categories: ['security'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [noEval, commandInjection, sqlInjection, hardCodedSecret, weakCrypto, insecureRandomness, tlsVerificationDisabled, pathTraversal, prototypePollution],
  detect: detectSecurity,
});
