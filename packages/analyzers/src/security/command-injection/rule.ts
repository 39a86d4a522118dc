// Flags shell commands built from values the code does not fix: child_process exec/execSync, and
// spawn/execFile with the `shell` option, whose command line a shell parses.
import { defineRule, roleOfFile, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createModuleBindings } from '../shared/modules.js';
import { placeOf, quote } from '../shared/place.js';
import { mentionsRequestInput } from '../shared/request-input.js';
import { describeShape, shapeOf, type StringShape } from '../shared/string-shape.js';
import { findBinding } from '../shared/scope.js';
import { argumentsOf, isLiteralBoolean, objectProperty, unwrap } from '../shared/syntax.js';
import { mergeVisitors } from '../../shared/visitors.js';

const options = z.object({}).strict().default({});

const MODULES = new Set(['child_process', 'shelljs']);
/** Functions that always hand their first argument to `/bin/sh -c` (or `cmd.exe /s /c`). */
const SHELL_ALWAYS = new Set(['exec', 'execSync']);
/** Functions that use a shell only with `{ shell: … }`; then arguments are joined unescaped. */
const SHELL_OPTION = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync']);

type ShellUse = 'always' | 'option' | 'conditional';

function shellUse(module: string, name: string, args: SyntaxNode[]): ShellUse | undefined {
  if (SHELL_ALWAYS.has(name)) return 'always';
  if (module !== 'child_process' || !SHELL_OPTION.has(name)) return undefined;
  const last = args.length > 1 ? unwrap(args[args.length - 1]) : undefined;
  const shell = last?.type === 'object' ? objectProperty(last, 'shell') : undefined;
  if (!shell || isLiteralBoolean(shell, false)) return undefined;
  // `shell: process.platform === 'win32'` uses a shell on some machines only.
  return isLiteralBoolean(shell, true) ? 'option' : 'conditional';
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The name a function is called by: its own, or the variable it is bound to. */
function functionName(fn: SyntaxNode): string | undefined {
  const own = fn.childForFieldName('name')?.text;
  if (own) return own;
  const holder = fn.parent?.type === 'variable_declarator' ? fn.parent.childForFieldName('name') : undefined;
  return holder?.type === 'identifier' ? holder.text : undefined;
}

/**
 * Whether every value a dynamic part is made of is a parameter of a function the module does not
 * export (`installChromiumViaApt(executablePath)`, called with '/usr/bin/chromium'): its callers are
 * this module's own code, which passes the command pieces it chose. Methods count as exported.
 */
function fromPrivateParameters(part: SyntaxNode, source: string): boolean {
  const n = unwrap(part);
  const identifiers = (n.type === 'identifier' ? [n] : n.descendantsOfType('identifier')).filter((id) => {
    const parent = id.parent;
    return !(parent?.type === 'call_expression' && parent.childForFieldName('function')?.id === id.id);
  });
  if (identifiers.length === 0) return false;
  return identifiers.every((id) => {
    const binding = findBinding(id);
    if (binding?.kind !== 'parameter') return false;
    const fn = binding.scope;
    if (fn.type === 'method_definition') return false;
    const name = functionName(fn);
    if (!name) return false;
    const e = escapeRegExp(name);
    return !new RegExp(
      `export\\s+(?:default\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var)\\s+${e}\\b|exports\\.${e}\\b|export\\s*\\{[^}]*\\b${e}\\b|module\\.exports\\s*=\\s*(?:\\{[^}]*\\b${e}\\b|${e}\\b)|export\\s+default\\s+${e}\\b`,
    ).test(source);
  });
}

function severityOf(shapes: StringShape[], fromRequest: boolean): 'critical' | 'high' | 'medium' {
  if (fromRequest) return 'critical';
  return shapes.some((s) => s.builtBy === 'template' || s.builtBy === 'concatenation') ? 'high' : 'medium';
}

export const commandInjection = defineRule({
  kind: 'file',
  meta: {
    id: 'command-injection',
    description: 'Shell commands (child_process exec, or spawn/execFile with shell) built from non-literal values',
    category: 'security',
    severity: 'high',
    options,
    confidence: 85,
    docs: {
      whyItMatters:
        'A shell parses the whole command line: a value spliced into it that contains `;`, `|`, `&&`, `$( )` or ' +
        'back-quotes runs extra commands with the privileges of the process. File names, branch names and form ' +
        'fields all can carry such characters.',
      suggestedAction:
        'Run the program without a shell and pass values as separate arguments: `execFile(cmd, [arg1, arg2])` or ' +
        '`spawn(cmd, args)` without `shell: true`. If a shell is unavoidable, validate the value against a strict ' +
        'allow-list or quote it with a shell-quoting library.',
    },
  },
  create(context) {
    if (!/child_process|shelljs/.test(context.source)) return {};
    // A maintainer's script (release, build, benchmark, docs) builds its commands from the repository's
    // own state — tags, SHAs, dates, its own arguments — and whoever runs it can run any command
    // already; only request input makes such a command injectable there.
    const production = roleOfFile(context.file) === 'production';
    const modules = createModuleBindings(MODULES);
    const check = (call: SyntaxNode) => {
      const target = modules.resolveCall(call);
      if (!target) return;
      const args = argumentsOf(call);
      const use = shellUse(target.module, target.name, args);
      if (!use || args.length === 0) return;
      const pieces = [args[0]];
      const list = args[1] ? unwrap(args[1]) : undefined;
      if (use !== 'always' && list?.type === 'array') pieces.push(...list.namedChildren.filter((c) => c.type !== 'comment'));
      const shapes = pieces.map((piece) => shapeOf(piece)).filter((shape) => shape.dynamicParts.length > 0);
      if (shapes.length === 0) return;
      const fromRequest = pieces.some((piece) => mentionsRequestInput(piece)) || shapes.some((s) => s.dynamicParts.some(mentionsRequestInput));
      if (!production && !fromRequest) return;
      if (!fromRequest && shapes.every((shape) => shape.dynamicParts.every((part) => fromPrivateParameters(part, context.source)))) return;
      const severity = severityOf(shapes, fromRequest);
      const place = placeOf(call, context.file.path);
      const fn = `${target.name}()`;
      const shellNote =
        use === 'always' ? 'a shell' : use === 'option' ? 'a shell (`shell` option)' : 'a shell on some platforms (`shell` option set from an expression)';
      const baseConfidence = fromRequest ? 90 : severity === 'high' ? 85 : 60;
      context.report({
        node: call,
        title: `${fn} runs a shell command built from ${shapes[0].dynamicParts.map((p) => quote(p, 30))[0]} in ${place.label}`,
        description:
          `${quote(call, 80)} hands ${shellNote} a command line made from ${describeShape(shapes[0])}` +
          `${fromRequest ? ', which includes request input' : ''}. Shell metacharacters in that value run extra commands.`,
        severity,
        confidence: use === 'conditional' ? baseConfidence - 15 : baseConfidence,
        symbol: place.symbol,
        data: { function: target.name, module: target.module, builtBy: shapes[0].builtBy, requestInput: fromRequest },
      });
    };
    return mergeVisitors(modules.visitor, { call_expression: check });
  },
});
