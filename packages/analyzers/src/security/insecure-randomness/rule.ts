// Flags Math.random() whose result becomes a token, password, secret, nonce, salt, OTP or session
// id, judged by the name of what the value is stored in, passed to, or returned from.
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';
import { flowOf } from '../shared/flow.js';
import { placeOf } from '../shared/place.js';
import { calleeOf } from '../shared/syntax.js';
import { wordsOf } from '../shared/words.js';

const options = z.object({}).strict().default({});

const SECRET_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'nonce',
  'salt',
  'otp',
  'totp',
  'csrf',
  'xsrf',
  'apikey',
  'credential',
  'credentials',
  'verifier',
  'pin',
  'iv',
  'sessionid',
]);
/** `<qualifier> <last>` pairs: `sessionId`, `apiKey`, `resetCode`. */
const QUALIFIED: Record<string, ReadonlySet<string>> = {
  id: new Set(['session', 'auth', 'login']),
  key: new Set(['api', 'secret', 'private', 'access', 'encryption', 'session', 'signing', 'auth', 'license']),
  code: new Set([
    'verification',
    'verify',
    'reset',
    'auth',
    'otp',
    'invite',
    'invitation',
    'confirmation',
    'activation',
    'recovery',
    'login',
    'security',
    'access',
  ]),
};

/** The secret-like thing a name stands for (`token` for `generateToken`), if any. */
export function secretPurpose(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const words = wordsOf(name.slice(name.lastIndexOf('.') + 1));
  const last = words[words.length - 1];
  if (!last) return undefined;
  if (SECRET_WORDS.has(last)) return last;
  const before = words[words.length - 2];
  return before && QUALIFIED[last]?.has(before) ? `${before} ${last}` : undefined;
}

export const insecureRandomness = defineRule({
  kind: 'file',
  meta: {
    id: 'insecure-randomness',
    description: 'Math.random() used to make tokens, passwords, secrets, nonces, salts, OTPs or session ids',
    category: 'security',
    // Demoted to info (issue 17): on the panel none of its findings held up (a postMessage tag, an
    // image cache-buster, an API request nonce); names alone cannot tell those from session tokens.
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 80,
    autoFixable: false,
    docs: {
      whyItMatters:
        'Math.random() is not a cryptographic generator: V8 uses xorshift128+, whose internal state can be ' +
        'recovered from a few outputs, after which every past and future value is predictable. A token, password ' +
        'or session id made from it can be guessed.',
      suggestedAction:
        'Use crypto.randomBytes(), crypto.randomInt(), crypto.randomUUID() or crypto.getRandomValues() for anything ' + 'that must be unguessable.',
    },
  },
  create(context) {
    if (!context.source.includes('Math.random')) return {};
    return {
      call_expression(call) {
        const callee = calleeOf(call);
        if (callee?.name !== 'random' || callee.object?.type !== 'identifier' || callee.object.text !== 'Math') return;
        const flow = flowOf(call);
        const direct = secretPurpose(flow.target);
        const viaCall = flow.callees.map(secretPurpose).find((p) => p);
        const viaFunction = secretPurpose(flow.functionName);
        const purpose = direct ?? viaCall ?? viaFunction;
        if (!purpose) return;
        const place = placeOf(call, context.file.path);
        const holder = direct
          ? `\`${flow.target}\``
          : viaCall
            ? `a call to \`${flow.callees.find((c) => secretPurpose(c))}\``
            : `the function \`${flow.functionName}\``;
        context.report({
          node: call,
          title: `Math.random() used for a ${purpose} in ${place.label}`,
          description: `Math.random() feeds ${holder}, which by its name is a ${purpose}. Its output is predictable, so the ${purpose} can be guessed.`,
          severity: 'info',
          confidence: direct || viaCall ? 80 : 60,
          symbol: place.symbol,
          data: { purpose },
        });
      },
    };
  },
});
