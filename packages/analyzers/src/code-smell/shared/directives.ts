// Reads the suppression directives a comment carries, as the tools that honour them read them:
// TypeScript's `@ts-ignore` / `@ts-expect-error` / `@ts-nocheck` and ESLint's `eslint-disable*`.
// Shared by the type-safety rules (explicit-any, type-check-suppression, blanket-lint-disable).

export type TsDirectiveKind = 'ts-ignore' | 'ts-expect-error' | 'ts-nocheck';

export interface TsDirective {
  kind: TsDirectiveKind;
  /** What follows the directive on its line, separators (`:`, `-`, `--`) removed; '' when nothing. */
  description: string;
}

export type LintDirectiveKind = 'eslint-disable' | 'eslint-disable-line' | 'eslint-disable-next-line';

export interface LintDirective {
  kind: LintDirectiveKind;
  /** Rule names the directive lists; empty for a blanket directive. */
  rules: string[];
  /** The `-- reason` text, '' when there is none. */
  reason: string;
}

// TypeScript's own patterns (scanner.ts): a `//` comment (or `///`) whose text starts with the
// directive, or a block comment whose last line does, after any `/` and `*`. Like TypeScript, no
// word boundary after the directive: `@ts-ignore-error` is a `@ts-ignore`.
const TS_LINE = /^\/\/\/?\s*@(ts-expect-error|ts-ignore)(.*)$/;
const TS_BLOCK_LINE = /^[/*\s]*@(ts-expect-error|ts-ignore)(.*)$/;
// `@ts-nocheck` is a pragma of the file's leading comments, a word of its own.
const TS_NOCHECK = /^\/\/\/?\s*@ts-nocheck(?![\w-])(.*)$/;
// ESLint: `eslint-disable` and `eslint-enable` only in block comments; the `-line` forms in both.
const LINT = /^(?:\/\/|\/\*)\s*(eslint-disable(?:-next-line|-line)?)(?![\w-])([\s\S]*?)(?:\*\/)?$/;

/** What a directive glued to more letters (`@ts-ignore-error`) has after the glued word. */
function afterGlued(text: string): string {
  return text.replace(/^[\w-]+/, '');
}

/** Drops the separators before a reason (`: `, `- `, `-- `) and a closing `*\/`. */
function cleanDescription(text: string): string {
  return text
    .replace(/\*\/\s*$/, '')
    .replace(/^[\s:\-–—,.]+/, '')
    .trim();
}

export function tsDirectiveOf(comment: string): TsDirective | undefined {
  if (comment.startsWith('//')) {
    const m = TS_LINE.exec(comment);
    if (m) return { kind: m[1] as TsDirectiveKind, description: cleanDescription(afterGlued(m[2])) };
    const nocheck = TS_NOCHECK.exec(comment);
    return nocheck ? { kind: 'ts-nocheck', description: cleanDescription(nocheck[1]) } : undefined;
  }
  if (!comment.startsWith('/*') || !comment.includes('@ts-')) return undefined;
  // TypeScript looks at the last line of a block comment.
  const lines = comment.split('\n');
  const m = TS_BLOCK_LINE.exec(lines[lines.length - 1]);
  return m ? { kind: m[1] as TsDirectiveKind, description: cleanDescription(afterGlued(m[2])) } : undefined;
}

export function lintDirectiveOf(comment: string): LintDirective | undefined {
  if (!comment.includes('eslint-disable')) return undefined;
  const m = LINT.exec(comment.trim());
  if (!m) return undefined;
  const kind = m[1] as LintDirectiveKind;
  // ESLint ignores `// eslint-disable` (a line comment): it disables nothing.
  if (kind === 'eslint-disable' && comment.startsWith('//')) return undefined;
  const [list, ...reason] = m[2].split(/\s-{2,}(?:\s|$)/);
  const rules = list
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r.length > 0);
  return {
    kind,
    rules,
    reason: reason
      .join(' -- ')
      .replace(/\*\/\s*$/, '')
      .trim(),
  };
}

/** Whether a description says something: at least three letters or digits. */
export function isMeaningful(description: string): boolean {
  return (description.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 3;
}
