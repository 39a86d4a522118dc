// Tells a credential-like string from placeholders, identifiers and prose, and a secret-holding
// name (`dbPassword`, `API_KEY`) from names that merely mention one (`passwordField`, `tokenUrl`).
import { wordsOf } from '../shared/words.js';

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

const PLACEHOLDER =
  /change[-_ .]?me|x{3,}|\*{3,}|\.{3}|example|dummy|sample|placeholder|your[-_ ]?|fake|test|mock|redacted|todo|fixme|replace|insert[-_ ]?here|lorem|foo|bar(?:baz)?|qwerty|12345678|abcdefg|<[^>]*>|\$\{|\{\{|%s|^\$[A-Z_]+$/i;

/** Values that stand for a secret without being one. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || /^(.)\1+$/.test(value);
}

/**
 * `access_token`, `x-api-key`, `GITHUB_TOKEN`, `auth.password.label`, `refreshToken`: names, keys and
 * messages. Generated secrets mix letters and digits within a run or have no separators at all.
 */
export function looksLikeIdentifier(value: string): boolean {
  const parts = value.split(/[-_.:/\s]+/).flatMap(wordsOf);
  return parts.length > 0 && parts.every((part) => /^[a-z]+$/.test(part) || /^[0-9]+$/.test(part));
}

/** Subresource-integrity hashes and lock-file digests are public by design. */
const INTEGRITY = /^(?:sha1|sha256|sha384|sha512|md5)-[A-Za-z0-9+/=]+$/;

/** Kinds of characters a random secret mixes: lower, upper, digit, symbol. */
function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
}

export interface ValueThresholds {
  minLength: number;
  minEntropy: number;
}

/** Why a literal is not taken for a secret, or undefined when it looks like one. */
export function rejectValue(value: string, thresholds: ValueThresholds): string | undefined {
  if (value.length < thresholds.minLength) return 'short';
  if (/\s/.test(value)) return 'prose';
  if (/^(?:https?:)?\/\/|^[./~]|^[a-z]+:\/\/[^:@]+$/i.test(value)) return 'path or url';
  if (INTEGRITY.test(value)) return 'integrity hash';
  if (isPlaceholder(value)) return 'placeholder';
  // `'[a-z0-9_.-]*[a-z0-9]'`: a regular expression's source, held in a `…_TOKEN` constant of a tokenizer.
  if (/\[[^\]]*[a-z0-9]-[a-z0-9][^\]]*\][*+?{]|\\[dwsb]/i.test(value)) return 'pattern';
  if (looksLikeIdentifier(value)) return 'identifier';
  if (characterClasses(value) < 2) return 'one character class';
  if (shannonEntropy(value) < thresholds.minEntropy) return 'low entropy';
  return undefined;
}

const SECRET_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'credential', 'credentials', 'apikey']);
/** `<word> key` pairs that name a key used as a credential. */
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'signing',
  'encryption',
  'auth',
  'client',
  'master',
  'app',
  'service',
  'session',
  'jwt',
  'hmac',
]);
/** Names of things that are about a secret but are not one. */
const NOT_SECRET_WORDS = new Set(['hash', 'hashed', 'digest', 'checksum', 'integrity', 'public', 'salt', 'id', 'public_key']);

/** True when a variable, property or field of this name holds a credential. */
export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (!last || words.some((w) => NOT_SECRET_WORDS.has(w))) return false;
  if (SECRET_WORDS.has(last)) return true;
  return last === 'key' && words.length > 1 && KEY_QUALIFIERS.has(words[words.length - 2]);
}
