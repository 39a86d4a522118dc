// Flags TypeScript suppression comments that do not say why: `@ts-ignore` and `@ts-expect-error`
// without a description (on their line or in the comment lines right above), and `@ts-nocheck`
// switching a TypeScript file's checking off.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { isMeaningful, lintDirectiveOf, tsDirectiveOf, type TsDirective } from '../shared/directives.js';

const options = z
  .object({
    /** Also report `@ts-ignore` that has a reason, at `info`: `@ts-expect-error` would say when it is stale. */
    reportDescribedIgnore: z.boolean().default(false),
  })
  .strict()
  .default({ reportDescribedIgnore: false });

const TS_LANGUAGES = new Set(['typescript', 'tsx']);

/**
 * Globals that exist in some runtimes or `lib` settings only (DOM, Node, Bun, Deno, workers). A
 * suppression over code that names one says its reason by itself: the build's `lib` lacks it, and
 * `@ts-expect-error` would fail the builds where it is present.
 */
const RUNTIME_GLOBALS = new RegExp(
  '(?<![\\w$.])(?:Bun|Deno|EdgeRuntime|navigator|window|document|self|File|Blob|FormData|atob|btoa|URL|' +
    'process|require|module|global|WebSocket|Buffer|caches|importScripts|structuredClone|AggregateError|WeakRef|' +
    'FinalizationRegistry)(?![\\w$])' +
    // Members that newer `lib` versions add (ES2021-ES2023): `error.cause = cause` under an ES2020 lib.
    '|\\.(?:cause|hasOwn|findLast|findLastIndex|replaceAll|toSorted|toSpliced|toReversed|groupBy)(?![\\w$])',
);
/** A version test just above (`if (semver.satisfies(ts.version, '>= 4.5'))`): the branches type-check under different versions. */
const VERSION_TEST = /\bversion\b|\bsemver\b/i;
const LINES_ABOVE = 3;
const CODE_START = /^\s*(?:\/\/|\/\*|\*|$)/;

interface Seen {
  endRow: number;
  /** An own-line comment that explains, or continues a block of own-line comments that does. */
  explains: boolean;
  /** Likewise for a lint disable naming typescript-eslint's ban-ts-comment: the suppression was reviewed. */
  acknowledges: boolean;
}

const BAN_TS_COMMENT = /(?:^|\/)(?:ban-ts-comment|prefer-ts-expect-error|ban-ts-ignore)$/;

/** Only whitespace before the comment on its first line. */
function ownsItsLine(source: string, node: SyntaxNode): boolean {
  const lineStart = source.lastIndexOf('\n', node.startIndex - 1) + 1;
  return source.slice(lineStart, node.startIndex).trim() === '';
}

/** `@ts-nocheck` counts only in the comments before the file's first statement. */
function isLeading(node: SyntaxNode): boolean {
  if (node.parent?.type !== 'program') return false;
  for (let sibling = node.previousSibling; sibling; sibling = sibling.previousSibling) {
    if (sibling.type !== 'comment' && sibling.type !== 'hash_bang_line') return false;
  }
  return true;
}

/** The first line after `row` that holds code, and whether the own-line comments before it explain. */
function lineBelow(lines: readonly string[], row: number): { code: string; explains: boolean } {
  let explains = false;
  for (let r = row + 1; r < lines.length; r++) {
    const line = lines[r];
    if (!CODE_START.test(line)) return { code: line, explains };
    const text = line.trim();
    if (text.startsWith('//') && !tsDirectiveOf(text) && !lintDirectiveOf(text) && isMeaningful(text.slice(2))) explains = true;
  }
  return { code: '', explains };
}

/** Up to LINES_ABOVE code lines before `row`. */
function codeAbove(lines: readonly string[], row: number): string[] {
  const found: string[] = [];
  for (let r = row - 1; r >= 0 && found.length < LINES_ABOVE; r--) if (!CODE_START.test(lines[r])) found.push(lines[r]);
  return found;
}

function findingOf(directive: TsDirective, explained: boolean, reportDescribedIgnore: boolean): { severity: Severity; title: string; why: string } | undefined {
  if (directive.kind === 'ts-nocheck') {
    return {
      severity: 'low',
      title: '`@ts-nocheck` turns type checking off for the whole file',
      why: 'No type error in this file is reported, now or after any later change.',
    };
  }
  if (!explained) {
    return directive.kind === 'ts-ignore'
      ? {
          severity: 'info',
          title: '`@ts-ignore` without a reason',
          why: 'It hides every type error on the next line, now and after any later change, and nothing says which error was meant or why it is safe.',
        }
      : {
          severity: 'info',
          title: '`@ts-expect-error` without a reason',
          why: 'It hides the type errors of the next line and nothing says which error was expected or why it is safe.',
        };
  }
  if (directive.kind === 'ts-ignore' && reportDescribedIgnore) {
    return {
      severity: 'info',
      title: '`@ts-ignore` where `@ts-expect-error` would report when it is no longer needed',
      why: 'A `@ts-ignore` stays silent after the error it hides is fixed, and hides any new error on that line.',
    };
  }
  return undefined;
}

export const typeCheckSuppression = defineRule({
  kind: 'file',
  meta: {
    id: 'type-check-suppression',
    description: '`@ts-ignore` and `@ts-expect-error` without a reason, and `@ts-nocheck`',
    category: 'code_smell',
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'A suppression comment hides type errors from everyone who reads or changes the code later. Without a reason ' +
        'nobody can tell which error was meant, whether it is still there, or whether the code is actually safe.',
      suggestedAction:
        'Fix the type error; if it must stay, use `// @ts-expect-error: <why>` (TypeScript reports it once the error ' +
        'is gone) and say which error it is and why it is safe.',
    },
  },
  create(context) {
    const { reportDescribedIgnore } = context.options;
    const lines = context.source.split('\n');
    let previous: Seen | undefined;
    return {
      comment(node) {
        const text = node.text;
        const own = ownsItsLine(context.source, node);
        const above = previous && own && previous.endRow === node.startPosition.row - 1 ? previous : undefined;
        const directive = tsDirectiveOf(text);
        const lint = lintDirectiveOf(text);
        // A reason may sit in the own-line comments right above, across other directives.
        const explainsAbove = above?.explains === true;
        const acknowledgedAbove = above?.acknowledges === true;
        previous = {
          endRow: node.endPosition.row,
          explains: own && (explainsAbove || (!directive && !lint && isMeaningful(text.replace(/^\/[/*]+|\*+\/$/g, '')))),
          acknowledges: own && (acknowledgedAbove || (lint?.kind === 'eslint-disable-next-line' && lint.rules.some((rule) => BAN_TS_COMMENT.test(rule)))),
        };
        if (!directive || acknowledgedAbove) return;
        if (directive.kind === 'ts-nocheck' && (!TS_LANGUAGES.has(context.file.language) || !isLeading(node))) return;
        // TypeScript skips comment lines between a directive and its code: a reason may follow it too.
        const below = directive.kind === 'ts-nocheck' ? undefined : lineBelow(lines, node.endPosition.row);
        const explained = isMeaningful(directive.description) || explainsAbove || below?.explains === true;
        // The code says why: a global or member only some libs declare, or a branch per version.
        if (!explained && below && (RUNTIME_GLOBALS.test(below.code) || codeAbove(lines, node.startPosition.row).some((l) => VERSION_TEST.test(l)))) return;
        const finding = findingOf(directive, explained, reportDescribedIgnore);
        if (!finding) return;
        context.report({
          node,
          title: finding.title,
          description: `${context.file.path}:${node.startPosition.row + 1}: ${text.trim().slice(0, 80)}. ${finding.why}`,
          severity: finding.severity,
          data: { directive: directive.kind, explained },
        });
      },
    };
  },
});
