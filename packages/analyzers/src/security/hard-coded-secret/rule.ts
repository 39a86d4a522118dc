// Flags credentials written into the code: known key formats anywhere in a file, and high-entropy
// string literals assigned to secret-named variables, properties and fields.
import { defineRule, type SyntaxNode } from '@codehealth/engine';
import { z } from 'zod';
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
    const scanFormats = FORMAT_HINT.test(context.source);
    const scanNames = !illustrative && NAME_HINT.test(context.source);
    if (!scanFormats && !scanNames) return {};
    const reportedValues = new Set<string>();
    // Matches are rare, so counting newlines per match is cheaper than indexing every line.
    const lineOf = (offset: number): number => 1 + (context.source.slice(0, offset).match(/\r\n|\r|\n/g)?.length ?? 0);

    const reportFormat = (root: SyntaxNode, format: SecretFormat, match: RegExpExecArray) => {
      const node = root.descendantForIndex(match.index, match.index + match[0].length);
      const place = placeOf(node, context.file.path);
      const where = illustrative ? ` It is in ${context.file.kind === 'test' ? 'test' : 'example'} code, which often holds revoked or sample keys: check whether it is live.` : '';
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
      });
    };

    const scan = (root: SyntaxNode) => {
      for (const format of SECRET_FORMATS) {
        if (illustrative && !format.liveInTests) continue;
        format.pattern.lastIndex = 0;
        for (let match = format.pattern.exec(context.source); match; match = format.pattern.exec(context.source)) {
          if (!STRUCTURED.has(format.id) && isPlaceholder(match[0])) continue;
          if (format.accept && !format.accept(match)) continue;
          if ([...reportedValues].some((seen) => seen.includes(match![0]) || match![0].includes(seen))) continue;
          reportFormat(root, format, match);
        }
      }
    };

    const checkNamed = (node: SyntaxNode) => {
      const named = namedLiteral(node);
      const authorization = /^authorization$/i.test(named?.name ?? '');
      if (!named || !(authorization || isSecretName(named.name))) return;
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
      });
    };

    const visitor: Record<string, (node: SyntaxNode) => void> = {};
    if (scanFormats) visitor.program = scan;
    if (scanNames) {
      for (const type of ['variable_declarator', 'pair', 'assignment_expression', 'public_field_definition']) visitor[type] = checkNamed;
      visitor.call_expression = checkArgument;
    }
    return visitor;
  },
});
