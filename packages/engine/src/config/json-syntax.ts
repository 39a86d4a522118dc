// JSON parsing whose errors say where, never what: Node's own messages quote the input
// (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and a message reaches users (a
// config error in an onboarding event, a skipped SARIF file in a run's progress). Only when
// JSON.parse fails does a small scanner find the first offending position.

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses JSON text; a syntax error becomes `not valid JSON: <problem> at line L, column C`. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const error = jsonSyntaxError(text);
    return { ok: false, message: error ? `not valid JSON: ${error.problem} at line ${error.line}, column ${error.column}` : 'not valid JSON' };
  }
}

export interface JsonSyntaxError {
  /** What is wrong, in words that quote nothing of the text. */
  problem: string;
  /** UTF-16 offset of the first character that cannot be there. */
  offset: number;
  line: number;
  column: number;
}

/** The first syntax error of a JSON text (RFC 8259, as JSON.parse reads it), or undefined when it is valid. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const at = (offset: number, problem: string): JsonSyntaxError => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    return { problem, offset, line, column: offset - before.lastIndexOf('\n') };
  };
  let i = 0;
  const n = text.length;
  const blank = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const unexpected = () => at(i, i >= n ? 'unexpected end of input' : 'unexpected character');
  const string = (): JsonSyntaxError | undefined => {
    for (i++; ; i++) {
      if (i >= n) return at(i, 'unterminated string');
      const code = text.charCodeAt(i);
      if (code === 0x22) return (i++, undefined);
      if (code < 0x20) return at(i, 'control character in a string');
      if (code === 0x5c) {
        const next = text[++i];
        if (next === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 1, i + 5))) return at(i - 1, 'bad escape in a string');
          i += 4;
        } else if (next === undefined || !'"\\/bfnrt'.includes(next)) return at(i - 1, 'bad escape in a string');
      }
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): JsonSyntaxError | undefined => {
    const c = text[i];
    if (c === '"') return string();
    for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, i)) return ((i += literal.length), undefined);
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number && number[0] !== '-') {
      i += number[0].length;
      return undefined;
    }
    return unexpected();
  };
  /** A property name and its colon, leaving `i` at the value. */
  const member = (): JsonSyntaxError | undefined => {
    const key = text[i] === '"' ? string() : at(i, i >= n ? 'unexpected end of input' : 'expected a property name');
    if (key) return key;
    blank();
    if (text[i] !== ':') return at(i, "expected ':' after a property name");
    i++;
    blank();
    return undefined;
  };
  // Iterative over nesting: a deeply nested text must not overflow the stack here either.
  const open: string[] = [];
  blank();
  for (;;) {
    const c = text[i];
    if (c === '{' || c === '[') {
      open.push(c);
      i++;
      blank();
      if (text[i] === (c === '{' ? '}' : ']')) {
        open.pop();
        i++;
      } else {
        const error = c === '{' ? member() : undefined;
        if (error) return error;
        continue;
      }
    } else {
      const error = value();
      if (error) return error;
    }
    // After a value: a separator, a closing bracket, or the end.
    for (;;) {
      blank();
      const container = open.at(-1);
      if (container === undefined) return i < n ? at(i, 'unexpected character after the value') : undefined;
      const close = container === '{' ? '}' : ']';
      if (text[i] === close) {
        open.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return at(i, i >= n ? 'unexpected end of input' : `expected ',' or '${close}'`);
      i++;
      blank();
      const error = container === '{' ? member() : undefined;
      if (error) return error;
      break;
    }
  }
}
