// Flags broken or deprecated cryptography in Node's crypto and WebCrypto: MD5/SHA-1 hashes in security uses,
// createCipher (no IV, MD5 key derivation), and DES, RC4, Blowfish or ECB-mode ciphers.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { flowOf } from '../shared/flow.js';
import { placeOf, quote } from '../shared/place.js';
import { enclosingFunction } from '../shared/scope.js';
import { shapeOf } from '../shared/string-shape.js';
import { argumentsOf, calleeOf, objectProperty, unwrap } from '../shared/syntax.js';
import { wordsOf } from '../shared/words.js';

const options = z.object({}).strict().default({});

const WEAK_HASHES = new Set(['md2', 'md4', 'md5', 'sha1', 'sha-1', 'md5-sha1', 'rsa-md5', 'rsa-sha1']);
/** Broken outright: single DES, RC4, and any ECB mode (equal blocks give equal ciphertext). */
const BROKEN_CIPHER = /^(?:des(?:-(?:cbc|cfb\d*|ofb|ecb))?|desx?(?:-cbc)?|rc4(?:-\d+|-hmac-md5)?|arc4)$|-ecb$|^ecb$/;
/** Obsolete 64-bit-block ciphers (Sweet32) and other legacy algorithms. */
const LEGACY_CIPHER = /^(?:des-ede3?(?:-\w+)?|des3(?:-wrap)?|bf(?:-\w+)?|blowfish|rc2(?:-\w+)?|cast5?(?:-\w+)?|idea(?:-\w+)?|seed(?:-\w+)?)$/;

/** Words saying a digest is an identifier or checksum, where collisions are not an attack. */
const NON_SECURITY_WORDS = new Set([
  'cache',
  'etag',
  'checksum',
  'fingerprint',
  'id',
  'ids',
  'key',
  'keys',
  'dedupe',
  'dedup',
  'file',
  'filename',
  'content',
  'gravatar',
  'bucket',
  'shard',
  'partition',
  'color',
  'colour',
  'uuid',
  'seed',
  'version',
  'revision',
  'slug',
  'name',
  'path',
  'url',
]);
/** Words saying a digest protects something: passwords, signatures, tokens. */
const SECURITY_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'signature',
  'sign',
  'auth',
  'credential',
  'credentials',
  'otp',
  'salt',
  'verify',
  'hmac',
]);

function literalArgument(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  const shape = shapeOf(node);
  return shape.dynamicParts.length === 0 && shape.staticText ? shape.staticText.toLowerCase() : undefined;
}

/** The algorithm named by `subtle.digest('SHA-1', …)` or `subtle.digest({ name: 'SHA-1' }, …)`. */
function webCryptoAlgorithm(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  return literalArgument(n.type === 'object' ? objectProperty(n, 'name') : n);
}

type Usage = 'security' | 'identifier' | 'unknown';

function usageOf(call: SyntaxNode, filePath: string): Usage {
  const flow = flowOf(call);
  const words = [flow.target, flow.functionName, ...flow.callees].filter((w): w is string => !!w).flatMap(wordsOf);
  // `.update(password)` in the same chain says what is hashed.
  const chainWords = flow.expression.descendantsOfType('identifier').flatMap((id) => wordsOf(id.text));
  if ([...words, ...chainWords].some((w) => SECURITY_WORDS.has(w))) return 'security';
  if (words.some((w) => NON_SECURITY_WORDS.has(w))) return 'identifier';
  // `function createNTLMHash(password) { const h = createHash('md4'); h.update(password); … }`.
  const params = enclosingFunction(call)?.childForFieldName('parameters')?.descendantsOfType('identifier') ?? [];
  if (params.flatMap((p) => wordsOf(p.text)).some((w) => SECURITY_WORDS.has(w))) return 'security';
  // A file named for what it protects (`auth/hash-password.ts`) says the same, more weakly.
  const fileWords = filePath
    .split('/')
    .slice(-2)
    .flatMap((part) => wordsOf(part.replace(/\.[^.]*$/, '')));
  return fileWords.some((w) => SECURITY_WORDS.has(w)) ? 'security' : 'unknown';
}

interface Weakness {
  title: string;
  description: string;
  severity: Severity;
  confidence: number;
  algorithm: string;
}

/**
 * A weak hash only where it protects something. MD5/SHA-1 as an ETag, cache key, checksum, content
 * fingerprint or a protocol's fixed digest (WebSocket's Sec-WebSocket-Accept) is not a security use,
 * and a digest whose purpose the names do not tell is not reported either.
 */
function hashWeakness(algorithm: string, call: SyntaxNode, filePath: string): Weakness | undefined {
  if (!WEAK_HASHES.has(algorithm)) return undefined;
  if (usageOf(call, filePath) !== 'security') return undefined;
  const name = algorithm.toUpperCase().replace('SHA1', 'SHA-1');
  const base = `${name} is broken for collision resistance: different inputs with the same digest can be crafted.`;
  return {
    title: `${name} used to protect a secret`,
    description: `${base} Here it hashes or signs a password, token or signature, which ${name} cannot protect.`,
    severity: 'high',
    confidence: 90,
    algorithm,
  };
}

function cipherWeakness(algorithm: string): Weakness | undefined {
  if (BROKEN_CIPHER.test(algorithm)) {
    const why =
      algorithm.endsWith('ecb') || algorithm === 'ecb'
        ? 'ECB mode encrypts equal blocks to equal ciphertext and leaks the structure of the data'
        : `${algorithm.toUpperCase()} is broken and can be decrypted without the key`;
    return { title: `Insecure cipher ${algorithm}`, description: `${why}.`, severity: 'high', confidence: 90, algorithm };
  }
  if (LEGACY_CIPHER.test(algorithm)) {
    return {
      title: `Legacy cipher ${algorithm}`,
      description: `${algorithm} has a 64-bit block or a retired design; long sessions are open to birthday attacks (Sweet32).`,
      severity: 'medium',
      confidence: 85,
      algorithm,
    };
  }
  return undefined;
}

export const weakCrypto = defineRule({
  kind: 'file',
  meta: {
    id: 'weak-crypto',
    description: 'MD5/SHA-1 hashes protecting passwords, tokens or signatures, the deprecated createCipher, and DES, RC4, Blowfish or ECB-mode ciphers',
    category: 'security',
    severity: 'medium',
    options,
    confidence: 80,
    docs: {
      whyItMatters:
        'Broken algorithms give a false sense of protection: MD5 and SHA-1 collisions are practical, DES and RC4 ' +
        'are decrypted in hours, ECB mode shows the shape of the plaintext, and createCipher derives its key with ' +
        'one round of MD5 and no IV.',
      suggestedAction:
        'Use SHA-256 or better for digests, scrypt/argon2/bcrypt for passwords, HMAC-SHA-256 for signatures, and ' +
        'AES-256-GCM (or ChaCha20-Poly1305) with createCipheriv and a random IV for encryption.',
    },
  },
  create(context) {
    if (!/createHash|createCipher|createDecipher|subtle/.test(context.source)) return {};
    return {
      call_expression(call) {
        const callee = calleeOf(call);
        if (!callee) return;
        const args = argumentsOf(call);
        let weakness: Weakness | undefined;
        if (callee.name === 'createHash') {
          const algorithm = literalArgument(args[0]);
          weakness = algorithm ? hashWeakness(algorithm, call, context.file.path) : undefined;
        } else if (callee.name === 'digest' && callee.object?.text.endsWith('subtle')) {
          const algorithm = webCryptoAlgorithm(args[0]);
          weakness = algorithm ? hashWeakness(algorithm.replace('sha-1', 'sha1'), call, context.file.path) : undefined;
        } else if (callee.name === 'createCipher' || callee.name === 'createDecipher') {
          weakness = {
            title: `Deprecated crypto.${callee.name}()`,
            description: `${callee.name}() derives the key from a password with a single MD5 round and no salt, and uses no IV; Node deprecated it and removed it in v22.`,
            severity: 'high',
            confidence: 90,
            algorithm: literalArgument(args[0]) ?? 'unknown',
          };
        } else if (callee.name === 'createCipheriv' || callee.name === 'createDecipheriv') {
          const algorithm = literalArgument(args[0]);
          weakness = algorithm ? cipherWeakness(algorithm) : undefined;
        }
        if (!weakness) return;
        const place = placeOf(call, context.file.path);
        context.report({
          node: call,
          title: `${weakness.title} in ${place.label}`,
          description: `${quote(call, 80)}: ${weakness.description}`,
          severity: weakness.severity,
          confidence: weakness.confidence,
          symbol: place.symbol,
          data: { algorithm: weakness.algorithm, function: callee.name },
        });
      },
    };
  },
});
