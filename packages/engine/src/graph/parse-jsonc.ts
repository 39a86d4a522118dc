// Reads tsconfig-style JSON: comments and trailing commas are allowed there, and JSON.parse
// refuses them. Callers of the module resolver use it in their `readJson`.

/** Parses JSON with comments and trailing commas; returns undefined when the text is not valid. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(stripJsonc(text));
  } catch {
    return undefined;
  }
}

function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  // A leading byte-order mark is common in files written on Windows.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === ',') {
      const next = text[skipBlank(text, i + 1)];
      if (next !== '}' && next !== ']') out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index of the next character that is neither white space nor inside a comment. */
function skipBlank(text: string, from: number): number {
  let j = from;
  for (;;) {
    while (j < text.length && /\s/.test(text[j])) j++;
    if (text.startsWith('//', j)) {
      const end = text.indexOf('\n', j);
      j = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', j)) {
      const end = text.indexOf('*/', j + 2);
      j = end < 0 ? text.length : end + 2;
    } else return j;
  }
}
