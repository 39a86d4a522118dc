// Flags production files where explicit `any` is dense: one finding per file above a count and a
// density per 1,000 lines of code, listing where. Type-level idioms (constraints, defaults, the
// `extends` of a conditional type), `catch (e: any)` and lint-acknowledged uses are not counted.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { mergeVisitors } from '../../shared/visitors.js';
import { lintDirectiveOf } from '../shared/directives.js';

const DEFAULTS = { minCount: 5, perKloc: 20 };

const options = z
  .object({
    /** Fewest counted `any` in a file for a finding. */
    minCount: z.number().int().positive().default(DEFAULTS.minCount),
    /** Fewest counted `any` per 1,000 lines of code for a finding. */
    perKloc: z.number().positive().default(DEFAULTS.perKloc),
  })
  .strict()
  .default(DEFAULTS);

/**
 * Generics whose `any` arguments make a loose value type (`Record<string, any>`, `Promise<any>`).
 * Any other generic given `any` (`Query<any, any>`, `Middleware<S, any>`) names every instance of
 * itself: the way to say "some Query" where `unknown` would fail the generic's variance.
 */
const CONTAINERS = new Set([
  'Array',
  'ReadonlyArray',
  'Record',
  'Promise',
  'PromiseLike',
  'Map',
  'ReadonlyMap',
  'WeakMap',
  'Set',
  'ReadonlySet',
  'WeakSet',
  'Iterable',
  'IterableIterator',
  'AsyncIterable',
  'AsyncIterableIterator',
  'Iterator',
  'Generator',
  'AsyncGenerator',
  'Partial',
  'Required',
  'Readonly',
  'Awaited',
  'NonNullable',
]);

/** Lines listed in the description; the rest are counted. */
const LISTED = 8;
const NO_EXPLICIT_ANY = /(?:^|\/)no-explicit-any$/;

/** Global objects read through a cast for what the configured `lib` does not declare (`(globalThis as any).Deno`). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);
const IMPLEMENTATIONS = new Set(['function_declaration', 'generator_function_declaration', 'method_definition']);
const OVERLOADS = new Set(['function_signature', 'method_signature']);
/** Where a container of only `any` means "any Map": a union member, a type predicate, a type alias's whole value. */
const TOP_TYPE_PLACES = new Set(['union_type', 'type_predicate', 'type_alias_declaration']);

/** Names of the error channel: a thrown value is untyped, as in `catch (e: any)`. */
const ERROR_NAMES = /^(?:e|err|error|reason|cause|exception|ex)$/i;
const PARAMETERS = new Set(['required_parameter', 'optional_parameter']);
const FIELDS = new Set(['public_field_definition', 'property_signature']);
const SIGNATURE_TYPES = new Set(['function_type', 'constructor_type']);

/** `(error: any)`, `readonly reason?: any`: the error channel, typed as what a throw gives. */
function isErrorChannel(annotation: SyntaxNode): boolean {
  const holder = annotation.parent;
  if (!holder) return false;
  const name = PARAMETERS.has(holder.type) ? holder.childForFieldName('pattern') : FIELDS.has(holder.type) ? holder.childForFieldName('name') : null;
  return name !== null && (name.type === 'identifier' || name.type === 'property_identifier') && ERROR_NAMES.test(name.text);
}

/** `(...args: any[]) => any`, `new (...args: any) => any`: a function type's rest parameter and result, the "any function". */
function isAnyFunctionPart(node: SyntaxNode): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (SIGNATURE_TYPES.has(parent.type)) return parent.childForFieldName('return_type')?.id === node.id || parent.childForFieldName('type')?.id === node.id;
  const annotation = parent.type === 'array_type' ? parent.parent : parent;
  const parameter = annotation?.type === 'type_annotation' ? annotation.parent : null;
  return (
    parameter?.type === 'required_parameter' &&
    parameter.childForFieldName('pattern')?.type === 'rest_pattern' &&
    SIGNATURE_TYPES.has(parameter.parent?.parent?.type ?? '')
  );
}

/** The signature of an implementation that follows overload signatures: callers only ever see the overloads. */
function isOverloadImplementationSignature(node: SyntaxNode): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'statement_block' || parent.type === 'class_body' || parent.type === 'program') return false;
    if (!IMPLEMENTATIONS.has(parent.type)) continue;
    const name = parent.childForFieldName('name')?.text;
    const holder = parent.parent?.type === 'export_statement' ? parent.parent : parent;
    let previous = holder.previousNamedSibling;
    while (previous?.type === 'comment') previous = previous.previousNamedSibling;
    const signature = previous?.type === 'export_statement' ? previous.childForFieldName('declaration') : previous;
    return signature !== null && signature !== undefined && OVERLOADS.has(signature.type) && signature.childForFieldName('name')?.text === name;
  }
  return false;
}

/** `Map<any, any>` as a union member, a type predicate or an alias: "any Map", not a loose map value. */
function isContainerTopType(args: SyntaxNode): boolean {
  const generic = args.parent!;
  return args.namedChildren.every((arg) => arg.type === 'predefined_type' && arg.text === 'any') && TOP_TYPE_PLACES.has(generic.parent?.type ?? '');
}

/**
 * Where `any` is the idiom rather than a hole: a type parameter's constraint or default
 * (`T extends any[]`, `<T = any>`), the tested type of a conditional type (`T extends (...a: any[]) => infer R`),
 * where `unknown` would reject what the code means to accept; an argument of a generic other than a
 * built-in container (`Query<any, any>`: any instance of Query); the rest parameter and result of a
 * function type (`(...args: any[]) => any`: any function); the error channel (`catch (e: any)`,
 * `onError(error: any)`), which only spells out what an untyped throw is; the signature of an
 * overloaded function's implementation, which callers never see; a built-in container of only `any`
 * as a union member, predicate or alias (`val is Map<any, any>`: any Map); and runtime globals
 * (`declare const Deno: any`, `(globalThis as any).process`).
 */
function isIdiomatic(node: SyntaxNode): boolean {
  const parent = node.parent;
  if (parent?.type === 'type_arguments' && parent.parent?.type === 'generic_type') {
    const name = parent.parent.childForFieldName('name')?.text ?? '';
    if (!CONTAINERS.has(name) || isContainerTopType(parent)) return true;
  }
  // `(globalThis as any).process`, `<any>window`: a runtime global the configured lib does not declare.
  if (
    (parent?.type === 'as_expression' || parent?.type === 'type_assertion') &&
    GLOBAL_OBJECTS.has(parent.namedChildren.find((c) => c.id !== node.id && c.type !== 'type_arguments')?.text ?? '')
  )
    return true;
  if (isAnyFunctionPart(node) || isOverloadImplementationSignature(node)) return true;
  if (node.parent?.type === 'type_annotation' && isErrorChannel(node.parent)) return true;
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'constraint':
      case 'default_type':
      case 'ambient_declaration': // `declare const Deno: any`: an optional runtime global, declared for the code that probes it.
        return true;
      case 'conditional_type':
        if (parent.childForFieldName('right')?.id === child.id) return true;
        break;
      case 'catch_clause':
        return child.type === 'type_annotation';
      case 'statement_block':
      case 'class_body':
      case 'program':
        return false;
    }
  }
  return false;
}

function lineList(rows: number[]): string {
  const shown = rows
    .slice(0, LISTED)
    .map((r) => r + 1)
    .join(', ');
  return rows.length > LISTED ? `${shown} and ${rows.length - LISTED} more` : shown;
}

export const explicitAny = defineRule({
  kind: 'file',
  meta: {
    id: 'explicit-any',
    description: 'Production files dense with explicit `any` types',
    category: 'code_smell',
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    // One finding per file: its identity is the rule, the file and the count's change, not the first `any`'s line.
    metric: { values: ['count'] },
    options,
    confidence: 80,
    languages: ['typescript', 'tsx'],
    docs: {
      whyItMatters:
        '`any` switches the type checker off for every value it touches, and spreads: what is read from an `any` is ' +
        '`any` too. A file dense with them is a file whose types no longer catch mistakes, however strict the project.',
      suggestedAction:
        'Type the values: `unknown` and a narrowing check for untrusted input, a generic for pass-through code, ' +
        'a precise type or interface otherwise. Where `any` is deliberate, say so with a named lint disable.',
    },
  },
  create(context) {
    const { minCount, perKloc } = context.options;
    const lines = createCodeLineCollector(context.source);
    const rows: number[] = [];
    const acknowledged = new Set<number>();
    let optedOut = false;
    return mergeVisitors(lines.visitor, {
      predefined_type(node) {
        if (node.text === 'any' && !isIdiomatic(node)) rows.push(node.startPosition.row);
      },
      comment(node) {
        const directive = lintDirectiveOf(node.text);
        if (!directive?.rules.some((rule) => NO_EXPLICIT_ANY.test(rule))) return;
        if (directive.kind === 'eslint-disable') optedOut = true;
        else acknowledged.add(directive.kind === 'eslint-disable-line' ? node.startPosition.row : node.endPosition.row + 1);
      },
      'program:exit': () => {
        if (optedOut) return;
        const counted = rows.filter((row) => !acknowledged.has(row));
        if (counted.length < minCount) return;
        const code = lines.codeLines().total;
        const density = (counted.length * 1000) / Math.max(code, 1);
        if (density < perKloc) return;
        const rounded = Math.round(density);
        context.report({
          lineStart: counted[0] + 1,
          title: `${counted.length} explicit \`any\` in ${code} lines of code (${rounded} per 1,000)`,
          description:
            `${context.file.path} uses \`any\` ${counted.length} times in ${code} lines of code, ${rounded} per 1,000 lines ` +
            `(reported from ${perKloc} per 1,000 and ${minCount} uses), at lines ${lineList(counted)}.`,
          data: { count: counted.length, codeLines: code, perKloc: rounded },
        });
      },
    });
  },
});
