// Flags file-system calls and file responses whose path comes from request input without
// `basename()` or a containment check in the same function.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createModuleBindings } from '../shared/modules.js';
import { placeOf, quote } from '../shared/place.js';
import { sourceMayReadRequests } from '../shared/request-input.js';
import { enclosingFunction } from '../shared/scope.js';
import { argumentsOf, calleeOf, objectProperty, unwrap } from '../shared/syntax.js';
import { taintOf } from './taint.js';
import { mergeVisitors } from '../../shared/visitors.js';

const options = z.object({}).strict().default({});

const MODULES = new Set(['fs', 'fs/promises', 'fs-extra', 'graceful-fs']);
/** fs functions that read, write or delete the file at their path argument(s), by argument index. */
const FS_SINKS = new Map<string, number[]>([
  ...[
    'readFile',
    'readFileSync',
    'writeFile',
    'writeFileSync',
    'appendFile',
    'appendFileSync',
    'createReadStream',
    'createWriteStream',
    'unlink',
    'unlinkSync',
    'rm',
    'rmSync',
    'rmdir',
    'rmdirSync',
    'readdir',
    'readdirSync',
    'open',
    'openSync',
    'readJson',
    'readJsonSync',
    'writeJson',
    'writeJsonSync',
    'outputFile',
    'outputFileSync',
    'remove',
    'removeSync',
  ].map((name): [string, number[]] => [name, [0]]),
  ...['copyFile', 'copyFileSync', 'rename', 'renameSync', 'copy', 'copySync', 'move', 'moveSync'].map((name): [string, number[]] => [name, [0, 1]]),
]);
/** Conventional names of the fs module when it is not imported in this file. */
const FS_NAMES = /^(?:fs|fsp|fse|fsPromises|fs\.promises)$/;
const RESPONSE = /^(?:res|response)$/;
/** A file without an fs module, an fs-named receiver or a file response has no sink of this rule. */
const FILE_ACCESS_HINT = /['"](?:node:)?(?:fs|fs\/promises|fs-extra|graceful-fs)['"]|\bfs(?:p|e|Promises)?\.|\.(?:sendFile|download)\s*\(/;
const RESPONSE_SINKS = new Set(['sendFile', 'download']);
/** A check in the function that the resolved path stays inside a directory, or a sanitiser. */
const GUARD = /\.startsWith\s*\(|['"`]\.\.['"`]|\bpath\.relative\s*\(|\bisAbsolute\s*\(|\b(?:sanitize|isSafe|isInside|isWithin)\w*\s*\(/;

export const pathTraversal = defineRule({
  kind: 'file',
  meta: {
    id: 'path-traversal',
    description: 'File-system calls and file responses whose path is built from request input without a containment check',
    category: 'security',
    severity: 'high',
    options,
    confidence: 80,
    docs: {
      whyItMatters:
        'A path taken from a request can contain `../` segments or be absolute: `GET /files?name=../../etc/passwd` ' +
        'then reads, overwrites or deletes any file the server process can reach, including its own secrets and code.',
      suggestedAction:
        'Reduce the input to a file name with `path.basename()`, or resolve it against the base directory and ' +
        'reject it unless `path.resolve(base, input).startsWith(base + path.sep)`. For downloads, pass `{ root }` ' +
        'to `res.sendFile` so Express refuses paths outside it.',
    },
  },
  create(context) {
    if (!FILE_ACCESS_HINT.test(context.source) || !sourceMayReadRequests(context.source)) return {};
    const modules = createModuleBindings(MODULES);

    const sinkOf = (call: SyntaxNode): { label: string; indexes: number[] } | undefined => {
      const callee = calleeOf(call);
      if (!callee) return undefined;
      const resolved = modules.resolveCall(call);
      const label = `${call.childForFieldName('function')?.text ?? callee.name}()`;
      const indexes = FS_SINKS.get(resolved?.name ?? (callee.object && FS_NAMES.test(callee.object.text) ? callee.name : ''));
      if (indexes) return { label, indexes };
      if (callee.object?.type === 'identifier' && RESPONSE.test(callee.object.text) && RESPONSE_SINKS.has(callee.name)) {
        // Express's `{ root }` option makes `send` refuse paths that leave the root.
        const settings = argumentsOf(call)
          .slice(1)
          .map(unwrap)
          .find((a) => a.type === 'object');
        if (settings && objectProperty(settings, 'root')) return undefined;
        return { label, indexes: [0] };
      }
      return undefined;
    };

    const check = (call: SyntaxNode) => {
      const sink = sinkOf(call);
      if (!sink) return;
      const args = argumentsOf(call);
      for (const index of sink.indexes) {
        const arg = args[index];
        const taint = arg ? taintOf(arg) : undefined;
        if (!arg || !taint) continue;
        const fn = enclosingFunction(call);
        if (GUARD.test((fn ?? call).text)) return;
        const place = placeOf(call, context.file.path);
        const via = taint.via.length > 0 ? ` through ${taint.via.map((v) => `\`${v}\``).join(' → ')}` : '';
        context.report({
          node: call,
          title: `Path from ${quote(taint.source, 40)} reaches ${sink.label} in ${place.label}`,
          description:
            `${quote(call, 80)} uses a path built from request input ${quote(taint.source, 40)}${via}, with no \`basename()\` ` +
            'or containment check in the function: `../` segments or an absolute path reach files outside the intended directory.',
          severity: 'high',
          confidence: taint.via.length === 0 ? 85 : 75,
          symbol: place.symbol,
          data: { sink: sink.label, viaVariables: taint.via.length },
        });
        return;
      }
    };
    return mergeVisitors(modules.visitor, { call_expression: check });
  },
});
