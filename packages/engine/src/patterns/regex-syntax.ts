// Reads JavaScript regular-expression source (the non-unicode dialect, Annex B quirks included)
// into a small syntax tree for the linear-time matcher (nfa.ts). It reads what that matcher can run
// in O(pattern × subject) and refuses the rest with an UnsupportedPatternError: backreferences
// (matching them is NP-hard) and, in safe-regexp.ts, the `u`/`v` flags. Callers check the syntax
// with `new RegExp` first, so this reader may assume it.

/** Code-unit ranges, flat and sorted: [lo0, hi0, lo1, hi1, ...], inclusive; `negate` complements. */
export interface CharSet {
  ranges: number[];
  negate: boolean;
}

export type AssertKind = 'start' | 'end' | 'line-start' | 'line-end' | 'word' | 'not-word';

export type RegexNode =
  | { type: 'empty' }
  | { type: 'char'; set: CharSet }
  | { type: 'seq'; items: RegexNode[] }
  | { type: 'alt'; branches: RegexNode[] }
  | { type: 'repeat'; body: RegexNode; min: number; max: number }
  | { type: 'assert'; kind: AssertKind }
  | { type: 'look'; behind: boolean; negate: boolean; body: RegexNode };

/** A construct the linear-time matcher does not run; the message says which. */
export class UnsupportedPatternError extends Error {
  override name = 'UnsupportedPatternError';
}

export interface RegexFlags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
}

const MAX_CODE_UNIT = 0xffff;
const DIGITS = [48, 57];
const WORD = [48, 57, 65, 90, 95, 95, 97, 122];
const SPACE = [9, 13, 32, 32, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
const LINE_TERMINATORS = [10, 10, 13, 13, 0x2028, 0x2029];

/** Sorted, merged copy of a flat range list. */
function normaliseRanges(ranges: readonly number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1] + 1) out[out.length - 1] = Math.max(out[out.length - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}

function complementRanges(ranges: readonly number[]): number[] {
  const sorted = normaliseRanges(ranges);
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    if (sorted[i] > next) out.push(next, sorted[i] - 1);
    next = sorted[i + 1] + 1;
  }
  if (next <= MAX_CODE_UNIT) out.push(next, MAX_CODE_UNIT);
  return out;
}

const BRACED_QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;
const DECIMAL = /\d+/y;

const set = (ranges: readonly number[], negate = false): CharSet => ({ ranges: normaliseRanges(ranges), negate });
const single = (code: number): RegexNode => ({ type: 'char', set: set([code, code]) });

/** The same language read backwards (lookarounds inside keep their own direction). */
export function reversed(node: RegexNode): RegexNode {
  switch (node.type) {
    case 'seq':
      return { type: 'seq', items: node.items.map(reversed).reverse() };
    case 'alt':
      return { type: 'alt', branches: node.branches.map(reversed) };
    case 'repeat':
      return { ...node, body: reversed(node.body) };
    default:
      return node;
  }
}

/** The longest stretch of subject a node can read (Infinity when unbounded). */
export function maxLength(node: RegexNode): number {
  switch (node.type) {
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxLength(item), 0);
    case 'alt':
      return Math.max(0, ...node.branches.map(maxLength));
    case 'repeat': {
      const body = maxLength(node.body);
      return body === 0 ? 0 : body * node.max;
    }
    default:
      return 0;
  }
}

/** Deeper nesting is refused: the reader and the compiler recurse once per level. */
const MAX_NESTING = 200;

class Reader {
  private pos = 0;
  private readonly groups: number;
  private readonly namedGroups: boolean;

  constructor(
    private readonly src: string,
    private readonly flags: RegexFlags,
  ) {
    const counted = countGroups(src);
    this.groups = counted.groups;
    this.namedGroups = counted.named;
  }

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) throw new UnsupportedPatternError(`unexpected "${this.src[this.pos]}" at ${this.pos}`);
    return node;
  }

  /** `pattern` (sticky) matched at the current position, without copying the rest of the source. */
  private sticky(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.pos;
    return pattern.exec(this.src);
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private disjunction(): RegexNode {
    const branches = [this.alternative()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.alternative());
    }
    return branches.length === 1 ? branches[0] : { type: 'alt', branches };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0] : items.length === 0 ? { type: 'empty' } : { type: 'seq', items };
  }

  private quantified(atom: RegexNode): RegexNode {
    const ch = this.peek();
    let min: number;
    let max: number;
    if (ch === '*') [min, max] = [0, Infinity];
    else if (ch === '+') [min, max] = [1, Infinity];
    else if (ch === '?') [min, max] = [0, 1];
    else if (ch === '{') {
      const braced = this.sticky(BRACED_QUANTIFIER);
      if (!braced) return atom;
      min = Number(braced[1]);
      max = braced[2] === undefined ? min : braced[3] === '' ? Infinity : Number(braced[3]);
      this.pos += braced[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === '?') this.pos++;
    return this.quantified({ type: 'repeat', body: atom, min, max });
  }

  private term(): RegexNode {
    const ch = this.src[this.pos++];
    switch (ch) {
      case '^':
        return { type: 'assert', kind: this.flags.multiline ? 'line-start' : 'start' };
      case '$':
        return { type: 'assert', kind: this.flags.multiline ? 'line-end' : 'end' };
      case '.':
        return { type: 'char', set: this.flags.dotAll ? set([0, MAX_CODE_UNIT]) : set(LINE_TERMINATORS, true) };
      case '(':
        return this.group();
      case '[':
        return { type: 'char', set: this.charClass() };
      case '\\':
        return this.atomEscape();
      default:
        return single(ch.charCodeAt(0));
    }
  }

  private depth = 0;

  private group(): RegexNode {
    if (++this.depth > MAX_NESTING) throw new UnsupportedPatternError(`groups nested more than ${MAX_NESTING} deep`);
    let look: { behind: boolean; negate: boolean } | undefined;
    if (this.peek() === '?') {
      const kind = this.peek(1);
      if (kind === ':') this.pos += 2;
      else if (kind === '=' || kind === '!') {
        look = { behind: false, negate: kind === '!' };
        this.pos += 2;
      } else if (kind === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
        look = { behind: true, negate: this.peek(2) === '!' };
        this.pos += 3;
      } else if (kind === '<') {
        const close = this.src.indexOf('>', this.pos);
        this.pos = close + 1;
      } else throw new UnsupportedPatternError(`group modifier "(?${kind ?? ''}"`);
    }
    const body = this.disjunction();
    if (this.src[this.pos++] !== ')') throw new UnsupportedPatternError('an unclosed group');
    this.depth--;
    return look ? { type: 'look', ...look, body } : body;
  }

  private atomEscape(): RegexNode {
    const ch = this.src[this.pos];
    if (ch === 'b' || ch === 'B') {
      this.pos++;
      return { type: 'assert', kind: ch === 'b' ? 'word' : 'not-word' };
    }
    if (ch >= '1' && ch <= '9') {
      const digits = this.sticky(DECIMAL)![0];
      if (Number(digits) <= this.groups) throw new UnsupportedPatternError('backreferences');
    }
    if (ch === 'k' && this.namedGroups) throw new UnsupportedPatternError('backreferences');
    return { type: 'char', set: this.escape(false).set };
  }

  /** After a backslash: a class escape (\d ...) or one code unit (`code`), as Annex B reads them. */
  private escape(inClass: boolean): { set: CharSet; code?: number } {
    const ch = this.src[this.pos++];
    const classes: Record<string, [readonly number[], boolean]> = {
      d: [DIGITS, false],
      D: [DIGITS, true],
      w: [WORD, false],
      W: [WORD, true],
      s: [SPACE, false],
      S: [SPACE, true],
    };
    const named = classes[ch];
    if (named) return { set: set(named[0], named[1]) };
    const code = this.readEscapedCode(ch, inClass);
    return { set: set([code, code]), code };
  }

  private readEscapedCode(ch: string, inClass: boolean): number {
    const simple: Record<string, number> = { f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (ch in simple) return simple[ch];
    if (ch === 'b' && inClass) return 8;
    if (ch === 'c') {
      const letter = this.peek();
      if (letter && (/[A-Za-z]/.test(letter) || (inClass && /[0-9_]/.test(letter)))) {
        this.pos++;
        return letter.charCodeAt(0) % 32;
      }
      // `\c` without a control letter is a backslash; the `c` is read again as itself.
      this.pos--;
      return 92;
    }
    if (ch === 'x' || ch === 'u') {
      const width = ch === 'x' ? 2 : 4;
      const hex = this.src.slice(this.pos, this.pos + width);
      if (hex.length === width && /^[0-9A-Fa-f]+$/.test(hex)) {
        this.pos += width;
        return parseInt(hex, 16);
      }
      return ch.charCodeAt(0);
    }
    if (ch >= '0' && ch <= '7') {
      // Legacy octal: up to three digits, at most \377.
      let value = ch.charCodeAt(0) - 48;
      const limit = value <= 3 ? 2 : 1;
      for (let i = 0; i < limit && /[0-7]/.test(this.peek() ?? ''); i++) value = value * 8 + (this.src.charCodeAt(this.pos++) - 48);
      return value;
    }
    return ch.charCodeAt(0);
  }

  private charClass(): CharSet {
    const negate = this.peek() === '^';
    if (negate) this.pos++;
    const ranges: number[] = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.src.length) throw new UnsupportedPatternError('an unclosed character class');
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++;
        const to = this.classAtom();
        if (from.single !== undefined && to.single !== undefined) {
          ranges.push(from.single, to.single);
          continue;
        }
        // Annex B: a range with a class escape at either end is the two sets and a literal `-`.
        ranges.push(...from.ranges, 45, 45, ...to.ranges);
        continue;
      }
      ranges.push(...from.ranges);
    }
    this.pos++;
    return set(ranges, negate);
  }

  private classAtom(): { ranges: number[]; single?: number } {
    const ch = this.src[this.pos++];
    if (ch !== '\\') {
      const code = ch.charCodeAt(0);
      return { ranges: [code, code], single: code };
    }
    const escaped = this.escape(true);
    if (escaped.code !== undefined) return { ranges: [escaped.code, escaped.code], single: escaped.code };
    return { ranges: escaped.set.negate ? complementRanges(escaped.set.ranges) : escaped.set.ranges };
  }
}

/** Capturing groups of a pattern (a `\N` up to this count is a backreference), and whether any is named. */
function countGroups(src: string): { groups: number; named: boolean } {
  let groups = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') {
      if (src[i + 1] !== '?') groups++;
      else if (src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!') {
        groups++;
        named = true;
      }
    }
  }
  return { groups, named };
}

/** Parses `source` (already accepted by `new RegExp(source, flags)`). */
export function parseRegex(source: string, flags: RegexFlags): RegexNode {
  return new Reader(source, flags).parse();
}
