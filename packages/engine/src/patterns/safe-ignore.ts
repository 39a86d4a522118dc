// The `ignore` package (gitignore rules: a repository's .gitignore files, config `exclude`) with
// its regular expressions run by the linear-time matcher. `ignore` pins most wildcards against
// backtracking, but runs of `**` do not: `x/**/**/**/**/**/**/**/**/y` against a path 40 directories
// deep took 17 s. Each rule keeps the regex `ignore` writes for it — so matching means exactly what
// it meant — and only its execution changes. This reaches into `ignore`'s rule objects (the
// `regex` and `checkRegex` getters of ignore@7.0.16, pinned); if they change, adding a rule throws.
import ignore, { type Ignore, type Options } from 'ignore';
import { compileSafeRegExp, type SafeRegExp } from './safe-regexp.js';

const MODES = ['regex', 'checkRegex'] as const;
const guarded = new WeakSet<object>();

/** A regex that never matches: git ignores a pattern it cannot read, and so does this. */
const NEVER: Pick<SafeRegExp, 'test'> = { test: () => false };

function rulesOf(instance: Ignore): object[] {
  const rules = (instance as unknown as { _rules?: { _rules?: unknown } })._rules?._rules;
  if (!Array.isArray(rules)) throw new Error('ignore internals changed: safe-ignore.ts no longer knows where the rules are');
  return rules as object[];
}

/** Replaces the rule's lazily built regexes with lazily built linear-time ones. */
function guardRule(rule: object): void {
  if (guarded.has(rule)) return;
  const prototype = Object.getPrototypeOf(rule) as object;
  for (const mode of MODES) {
    const build = Object.getOwnPropertyDescriptor(prototype, mode)?.get;
    if (typeof build !== 'function') throw new Error(`ignore internals changed: rules have no \`${mode}\` getter`);
    let safe: Pick<SafeRegExp, 'test'> | undefined;
    Object.defineProperty(rule, mode, {
      get() {
        if (safe) return safe;
        // `ignore`'s getter, run on a throw-away heir so that it caches its RegExp there, not on the rule.
        const original = build.call(Object.create(rule)) as RegExp;
        try {
          safe = compileSafeRegExp(original.source, original.flags);
        } catch {
          safe = NEVER;
        }
        return safe;
      },
    });
  }
  guarded.add(rule);
}

function guardAll(instance: Ignore): void {
  for (const rule of rulesOf(instance)) guardRule(rule);
}

/** `ignore(options)`, every rule of which (added now or later) matches in linear time. */
export function safeIgnore(options?: Options): Ignore {
  const instance = ignore(options);
  const add = instance.add.bind(instance);
  instance.add = (patterns) => {
    add(patterns);
    guardAll(instance);
    return instance;
  };
  return instance;
}
