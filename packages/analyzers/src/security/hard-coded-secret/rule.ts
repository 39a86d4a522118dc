// Flags credentials written into the code: known key formats anywhere in a file, and high-entropy
// string literals assigned to secret-named variables, properties and fields.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { callOfCallee, nodesAtMatches } from '../shared/candidates.js';
import { placeOf } from '../shared/place.js';
import { argumentsOf, assignedName, calleeOf, literalString, propertyKey, unwrap } from '../shared/syntax.js';
import { FORMAT_HINT, SECRET_FORMATS, type SecretFormat } from './formats.js';
import { isPlaceholder, isSecretName, rejectValue, shannonEntropy } from './values.js';

const DEFAULTS = { minLength: 10, minEntropy: 3 };

const options = z
  .object({
    minLength: z.number().int().min(6).default(DEFAULTS.minLength),
    minEntropy: z.number().min(0).max(8).default(DEFAULTS.minEntropy),
  })
  .strict()
  .default(DEFAULTS);

/** Folders whose code is illustrative: only provider-format keys are reported there. */
const ILLUSTRATIVE_PATH = /(?:^|\/)(?:examples?|demos?|docs?|samples?|stories|storybook)\//i;
const NAME_HINT = /pass|pwd|secret|token|key|credential|authorization|createHmac|Cipheriv|jwt/i;
/**
 * The opening quote of a literal stored under a name ending in a secret word: `dbPassword = '…'`,
 * `apiKey: '…'`, `'api-key': '…'`, `token?: string = '…'`, and the fallback of
 * `secret = process.env.X || '…'`. Matching the word first (not every identifier) keeps the scan
 * fast; the rest of the name is read backwards from the match.
 */
const NAMED_LITERAL =
  /(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|key|authorization)['"]?\s*(?::|\??\s*(?::[^=;\n]*?)?=(?![=>]))\s*(?:process\.env(?:\.[\w$]+|\[[^\]\n]+\])\s*(?:\|\||\?\?)\s*)?(['"`])/gi;

/** The whole identifier that ends with the secret word matched at `index`. */
function nameEndingAt(source: string, index: number, word: string): string {
  let start = index;
  while (start > 0 && /[\w$-]/.test(source[start - 1])) start--;
  return source.slice(start, index) + word;
}
const NAMED_CONTEXTS = new Set(['variable_declarator', 'pair', 'assignment_expression', 'public_field_definition']);
const KEY_CALL = /\b(?:createHmac|sign|verify|createCipheriv|createDecipheriv)\s*\(/g;
/** Arguments that are keys by position: `createHmac(alg, key)`, `jwt.sign(payload, secret)`. */
const SECRET_ARGUMENTS: ReadonlyArray<{ name: RegExp; object?: RegExp; index: number; label: string }> = [
  { name: /^createHmac$/, index: 1, label: 'HMAC key' },
  { name: /^(?:sign|verify)$/, object: /^(?:jwt|jsonwebtoken|JWT|jose)$/, index: 1, label: 'JWT signing key' },
  { name: /^create(?:De)?cipheriv$/i, index: 1, label: 'encryption key' },
];
/** Formats whose match is validated by its structure, not by placeholder words. */
const STRUCTURED = new Set(['private-key', 'jwt']);

/** Shows enough of a secret to find it, never the secret itself. */
function mask(value: string): string {
  return `${value.slice(0, 4)}… (${value.length} characters)`;
}

/** The name a literal is stored under, and the literal (a `process.env.X || '…'` fallback counts). */
function namedLiteral(node: SyntaxNode): { name: string; value: SyntaxNode } | undefined {
  let name: string | undefined;
  let value: SyntaxNode | null = null;
  if (node.type === 'variable_declarator') {
    name = node.childForFieldName('name')?.type === 'identifier' ? node.childForFieldName('name')?.text : undefined;
    value = node.childForFieldName('value');
  } else if (node.type === 'pair') {
    name = propertyKey(node.childForFieldName('key'));
    value = node.childForFieldName('value');
  } else if (node.type === 'assignment_expression') {
    const left = node.childForFieldName('left');
    name = left ? assignedName(left) : undefined;
    value = node.childForFieldName('right');
  } else if (node.type === 'public_field_definition') {
    name = propertyKey(node.childForFieldName('name'))?.replace(/^#/, '');
    value = node.childForFieldName('value');
  }
  if (!name || !value) return undefined;
  let literal = unwrap(value);
  if (literal.type === 'binary_expression' && /^(?:\|\||\?\?)$/.test(literal.childForFieldName('operator')?.text ?? '')) {
    literal = unwrap(literal.childForFieldName('right') ?? literal);
  }
  return { name, value: literal };
}

/**
 * A credential that is not secret by design: Algolia/DocSearch search-only keys ship to every browser
 * (`algolia: { apiKey }`), and a local service's login (`{ host: 'localhost', password }`) opens
 * nothing beyond the developer's machine.
 */
function publicByDesign(holder: SyntaxNode): boolean {
  const object = holder.parent?.type === 'object' ? holder.parent : undefined;
  if (!object) return false;
  if (/\b(?:host|hostname|server)\s*:\s*['"`](?:localhost|127\.0\.0\.1|0\.0\.0\.0)['"`]/.test(object.text)) return true;
  const owner = object.parent?.type === 'pair' ? (object.parent.childForFieldName('key')?.text ?? '') : '';
  return /algolia|docsearch/i.test(owner);
}

export const hardCodedSecret = defineRule({
  kind: 'file',
  meta: {
    id: 'hard-coded-secret',
    description: 'Credentials written into the code: provider key formats and high-entropy secret-named literals',
    category: 'security',
    severity: 'high',
    options,
    confidence: 65,
    fileKinds: ['source', 'test'],
    docs: {
      whyItMatters:
        'A secret in the code is readable by everyone who can read the repository, its forks, its CI logs and ' +
        'every clone, forever: deleting it later leaves it in the history. Leaked keys are harvested from public ' +
        'repositories within minutes and give direct access to the services they unlock.',
      suggestedAction:
        'Revoke and rotate the credential now, then load it at run time from the environment or a secret manager ' +
        '(`process.env.API_KEY`, Vault, AWS Secrets Manager). Keep test credentials obviously fake.',
    },
  },
  create(context) {
    const { minLength, minEntropy } = context.options;
    const illustrative = context.file.kind === 'test' || ILLUSTRATIVE_PATH.test(context.file.path);
    const fileName = context.file.path.slice(context.file.path.lastIndexOf('/') + 1);
    const hasKeyHint = FORMAT_HINT.test(context.source);
    const hasUrl = context.source.includes('://');
    const scanFormats = hasKeyHint || hasUrl;
    const scanNames = !illustrative && NAME_HINT.test(context.source);
    if (!scanFormats && !scanNames) return {};
    const reportedValues = new Set<string>();
    // Matches are rare, so counting newlines per match is cheaper than indexing every line.
    const lineOf = (offset: number): number => 1 + (context.source.slice(0, offset).match(/\r\n|\r|\n/g)?.length ?? 0);

    const reportFormat = (root: SyntaxNode, format: SecretFormat, match: RegExpExecArray) => {
      const node = root.descendantForIndex(match.index, match.index + match[0].length);
      const place = placeOf(node, context.file.path);
      const where = illustrative
        ? ` It is in ${context.file.kind === 'test' ? 'test' : 'example'} code, which often holds revoked or sample keys: check whether it is live.`
        : '';
      reportedValues.add(match[0]);
      context.report({
        lineStart: lineOf(match.index),
        lineEnd: lineOf(match.index + match[0].length - 1),
        title: `Hard-coded ${format.label} in ${fileName}`,
        description: `${fileName} contains a string in the format of a ${format.label} (${mask(match[0])}). Anyone who can read the code or its history can use it.${where}`,
        severity: illustrative ? 'medium' : format.severity,
        confidence: illustrative ? format.confidence - 30 : format.confidence,
        symbol: place.symbol,
        data: { format: format.id, illustrative },
        redact: [match[0]],
      });
    };

    const scan = (root: SyntaxNode) => {
      for (const format of SECRET_FORMATS) {
        if ((illustrative && !format.liveInTests) || !(format.id === 'url-password' ? hasUrl : hasKeyHint)) continue;
        format.pattern.lastIndex = 0;
        for (let match = format.pattern.exec(context.source); match; match = format.pattern.exec(context.source)) {
          if (!STRUCTURED.has(format.id) && isPlaceholder(match[0])) continue;
          if (format.accept && !format.accept(match)) continue;
          if ([...reportedValues].some((seen) => seen.includes(match![0]) || match![0].includes(seen))) continue;
          reportFormat(root, format, match);
        }
      }
    };

    const checkNamed = (holder: SyntaxNode) => {
      const named = namedLiteral(holder);
      const authorization = /^authorization$/i.test(named?.name ?? '');
      if (!named || !(authorization || isSecretName(named.name))) return;
      if (publicByDesign(holder)) return;
      let value = literalString(named.value);
      // A value in a provider's format is the format scan's to judge, placeholder or not.
      if (value === undefined || SECRET_FORMATS.some((format) => new RegExp(format.pattern.source, 'i').test(value!))) return;
      // `Authorization: 'Bearer <token>'` holds the credential after the scheme.
      if (authorization) value = value.replace(/^(?:Bearer|Basic|Token)\s+/i, '');
      if ([...reportedValues].some((seen) => value!.includes(seen)) || rejectValue(value, { minLength, minEntropy })) return;
      const place = placeOf(named.value, context.file.path);
      const entropy = Math.round(shannonEntropy(value) * 100) / 100;
      context.report({
        node: named.value,
        title: `Hard-coded secret in \`${named.name}\` in ${fileName}`,
        description:
          `\`${named.name}\` is given a literal that looks like a credential: ${mask(value)}, ${entropy} bits of entropy per character. ` +
          'Secrets in code are readable by everyone with access to the repository and its history.',
        severity: 'high',
        confidence: entropy >= 4 ? 75 : 65,
        symbol: place.symbol,
        data: { format: 'generic', entropy, length: value.length },
        redact: [value],
      });
    };

    const checkArgument = (call: SyntaxNode) => {
      const callee = calleeOf(call);
      const position = callee && SECRET_ARGUMENTS.find((p) => p.name.test(callee.name) && (!p.object || (callee.object && p.object.test(callee.object.text))));
      const arg = position ? argumentsOf(call)[position.index] : undefined;
      const value = arg ? literalString(arg) : undefined;
      if (!position || !arg || value === undefined || rejectValue(value, { minLength, minEntropy })) return;
      const place = placeOf(arg, context.file.path);
      const entropy = Math.round(shannonEntropy(value) * 100) / 100;
      context.report({
        node: arg,
        title: `Hard-coded ${position.label} in ${fileName}`,
        description: `\`${callee!.name}()\` is given a literal ${position.label}: ${mask(value)}, ${entropy} bits of entropy per character. Anyone who reads the code can sign or decrypt with it.`,
        severity: 'high',
        confidence: 75,
        symbol: place.symbol,
        data: { format: 'key-argument', entropy, length: value.length },
        redact: [value],
      });
    };

    // Both checks start from text matches, so files without candidates cost one regex scan.
    const checkNames = (root: SyntaxNode) => {
      NAMED_LITERAL.lastIndex = 0;
      for (let match = NAMED_LITERAL.exec(context.source); match; match = NAMED_LITERAL.exec(context.source)) {
        const name = nameEndingAt(context.source, match.index, /^[A-Za-z]+/.exec(match[0])![0]);
        if (!/^authorization$/i.test(name) && !isSecretName(name)) continue;
        let node: SyntaxNode | null = root.descendantForIndex(match.index + match[0].length - 1);
        while (node && node.type !== 'string' && node.type !== 'template_string') node = node.parent;
        let holder = node?.parent;
        if (holder?.type === 'binary_expression') holder = holder.parent;
        if (holder && NAMED_CONTEXTS.has(holder.type)) checkNamed(holder);
      }
      nodesAtMatches(root, context.source, KEY_CALL, callOfCallee).forEach(checkArgument);
    };

    if (!scanFormats) return { program: checkNames };
    if (!scanNames) return { program: scan };
    return {
      program: (root) => {
        scan(root);
        checkNames(root);
      },
    };
  },
});
