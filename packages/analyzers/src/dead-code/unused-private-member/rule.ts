// Flags `private` and `#private` class members (methods, properties, accessors, parameter
// properties) that nothing inside the class references. Occurrences of each name are found in the
// text of the class body and confirmed on the tree, so only class bodies are looked at twice.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';

const options = z
  .object({ ignoreDecorated: z.boolean().default(true) })
  .strict()
  .default({ ignoreDecorated: true });

const CLASS_TYPES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);
const MEMBER_DECLARATIONS = new Set(['method_definition', 'method_signature', 'public_field_definition', 'abstract_method_signature']);
const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;
// `this[key]` reaches TS-private members by a computed name; `#x` members cannot be reached that way.
const DYNAMIC_THIS_ACCESS = /\bthis\s*\[\s*[^\s'"`\]]/;

interface Candidate {
  name: string;
  /** `#x` members: the name includes the `#`. */
  hashPrivate: boolean;
  kind: 'method' | 'property' | 'accessor' | 'parameter property';
  node: SyntaxNode;
  /** Start of every declaring name (overloads, getter and setter pairs). */
  declarations: number[];
  constructorBody?: SyntaxNode;
}

export const unusedPrivateMember = defineRule({
  kind: 'file',
  meta: {
    id: 'unused-private-member',
    description: 'Private class members (TS `private` or ES `#private`) that nothing inside the class uses',
    category: 'dead_code',
    severity: 'medium',
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'A private member can only be used inside its class; when the class never uses it, it is dead code for ' +
        'certain: it is still read, maintained and initialised (its initialiser runs on every construction).',
      suggestedAction:
        'Delete the member. For a parameter property that is still needed as a constructor argument, drop the ' +
        '`private` modifier so that it stays a plain parameter.',
    },
  },
  create(context) {
    const { source } = context;
    return {
      class_body(body) {
        const owner = body.parent;
        if (!owner || !CLASS_TYPES.has(owner.type) || owner.parent?.type === 'ambient_declaration') return;
        // Uses are confirmed on the tree: in a body with parse errors they may sit in ERROR nodes.
        if (body.hasError) return;
        const candidates = collectCandidates(body, context.options.ignoreDecorated);
        if (candidates.length === 0) return;
        const text = source.slice(body.startIndex, body.endIndex);
        const dynamic = DYNAMIC_THIS_ACCESS.test(text);
        const className = owner.childForFieldName('name')?.text ?? '(anonymous class)';
        for (const candidate of candidates) {
          if (!candidate.hashPrivate && dynamic) continue;
          if (isReferenced(body, source, candidate)) continue;
          const display = candidate.name;
          context.report({
            node: candidate.node,
            title: `Unused private ${candidate.kind} ${className}.${display}`,
            description:
              `The private ${candidate.kind} ${display} of class ${className} is never referenced inside the class` +
              (candidate.hashPrivate ? ', and a #private name cannot be reached from anywhere else.' : '; TypeScript forbids access from outside it.'),
            severity: candidate.kind === 'method' || candidate.kind === 'accessor' ? 'medium' : 'low',
            confidence: candidate.hashPrivate ? 95 : 85,
            symbol: `${className}.${display}`,
            data: { member: display, kind: candidate.kind },
          });
        }
      },
    };
  },
});

function collectCandidates(body: SyntaxNode, ignoreDecorated: boolean): Candidate[] {
  const byName = new Map<string, Candidate>();
  let decorated = false;
  for (const member of body.namedChildren) {
    if (member.type === 'decorator') {
      decorated = true;
      continue;
    }
    const hasDecorator = decorated || member.children.some((c) => c.type === 'decorator');
    decorated = false;
    if (!MEMBER_DECLARATIONS.has(member.type)) continue;
    const nameNode = member.childForFieldName('name');
    if (!nameNode) continue;
    if (member.type === 'method_definition' && nameNode.text === 'constructor') {
      for (const candidate of parameterProperties(member, ignoreDecorated)) byName.set(candidate.name, candidate);
      continue;
    }
    const hashPrivate = nameNode.type === 'private_property_identifier';
    if (!hashPrivate && !(nameNode.type === 'property_identifier' && isPrivate(member))) continue;
    const known = byName.get(nameNode.text);
    if (known) {
      known.declarations.push(nameNode.startIndex);
      if (known.node.type === 'method_signature') known.node = member;
      continue;
    }
    if (ignoreDecorated && hasDecorator) continue;
    // `private readonly _type!: 'RejectWithValue'`: declared, never assigned, a brand that makes the
    // class nominal for the type checker (nothing reads it at run time on purpose).
    if (member.type === 'public_field_definition' && !member.childForFieldName('value') && member.children.some((c) => c.type === '!')) continue;
    const accessor = member.children.some((c) => c.type === 'get' || c.type === 'set');
    const kind = member.type === 'public_field_definition' ? 'property' : accessor ? 'accessor' : 'method';
    byName.set(nameNode.text, { name: nameNode.text, hashPrivate, kind, node: member, declarations: [nameNode.startIndex] });
  }
  return [...byName.values()];
}

function isPrivate(member: SyntaxNode): boolean {
  return member.children.some((c) => c.type === 'accessibility_modifier' && c.text === 'private');
}

function parameterProperties(constructor: SyntaxNode, ignoreDecorated: boolean): Candidate[] {
  const out: Candidate[] = [];
  const body = constructor.childForFieldName('body') ?? undefined;
  for (const parameter of constructor.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!isPrivate(parameter)) continue;
    if (ignoreDecorated && parameter.children.some((c) => c.type === 'decorator')) continue;
    const pattern = parameter.childForFieldName('pattern');
    if (pattern?.type !== 'identifier') continue;
    out.push({
      name: pattern.text,
      hashPrivate: false,
      kind: 'parameter property',
      node: parameter,
      declarations: [pattern.startIndex],
      constructorBody: body,
    });
  }
  return out;
}

function isReferenced(body: SyntaxNode, source: string, candidate: Candidate): boolean {
  const { name, declarations } = candidate;
  const end = body.endIndex;
  for (let at = source.indexOf(name, body.startIndex); at >= 0 && at < end; at = source.indexOf(name, at + name.length)) {
    const after = at + name.length;
    if (declarations.includes(at)) continue;
    if ((at > 0 && IDENTIFIER_CHAR.test(source[at - 1])) || IDENTIFIER_CHAR.test(source[after] ?? '')) continue;
    const node = body.descendantForIndex(at, after);
    if (isUse(node, candidate)) return true;
  }
  return false;
}

function isUse(node: SyntaxNode, candidate: Candidate): boolean {
  const parent = node.parent;
  switch (node.type) {
    case 'private_property_identifier':
      // `this.#x`, `#x in obj`; the name of a member declaration (nested class, overload) is not a use.
      return parent?.type === 'member_expression' || parent?.type === 'binary_expression';
    case 'property_identifier':
      // `obj.x`, `const { x: y } = this`; an object literal key or a type member of the same name is not.
      return parent?.type === 'member_expression' || parent?.type === 'pair_pattern';
    case 'shorthand_property_identifier_pattern':
      return true;
    case 'string_fragment':
      // `this['x']`, `'x' in this`, and names handed to reflection or decorators.
      return node.text === candidate.name;
    case 'identifier':
      // Inside the constructor a parameter property's name is also the parameter itself.
      return (
        candidate.constructorBody !== undefined &&
        node.startIndex >= candidate.constructorBody.startIndex &&
        node.endIndex <= candidate.constructorBody.endIndex
      );
    default:
      return false;
  }
}
