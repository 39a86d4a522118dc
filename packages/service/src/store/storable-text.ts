// Text the relational store can hold: Postgres `text` and `jsonb` refuse U+0000. What the service
// receives from a code host may legitimately hold it (GitHub passes a NUL in a commit message or a
// pull-request title through to its payloads), and refusing such a delivery would lose a genuine
// event; so it is kept with U+FFFD, the Unicode replacement character, in each NUL's place, and
// the places are reported. REST request bodies are refused instead (their sender can fix them).

/** What a NUL becomes: the character Unicode (and HTML parsing) uses for one that cannot be kept. */
export const NUL_REPLACEMENT = '\uFFFD';

/** Paths reported at most; `count` still counts every string changed. */
const MAX_REPORTED_PATHS = 20;

export interface NulReplacements {
  /** The value with every NUL in its strings and object keys replaced (the input itself when none was found). */
  value: unknown;
  /** Dotted paths of the changed strings or keys, in document order, at most 20. */
  paths: string[];
  /** Strings and keys changed. */
  count: number;
}

export const storableText = (text: string): string => (text.includes('\u0000') ? text.replaceAll('\u0000', NUL_REPLACEMENT) : text);

/** Replaces U+0000 throughout a parsed JSON value. Walked without recursion (payloads nest deeply). */
export function replaceNul(root: unknown): NulReplacements {
  const paths: string[] = [];
  let count = 0;
  const note = (path: string) => {
    count++;
    if (paths.length < MAX_REPORTED_PATHS) paths.push(path);
  };
  const box = { value: root };
  // Each pending slot is a container and the key whose value to visit. Containers are copied on the
  // way down (the input is never changed); without a NUL the input itself is returned.
  interface Slot {
    holder: Record<string, unknown> | unknown[];
    key: string | number;
    path: string;
    /** The key held a NUL (reported when the slot is visited, to keep document order). */
    renamed?: boolean;
  }
  const pending: Slot[] = [{ holder: box as unknown as Record<string, unknown>, key: 'value', path: '' }];
  let changedAny = false;
  for (let slot = pending.pop(); slot; slot = pending.pop()) {
    const value = (slot.holder as Record<string | number, unknown>)[slot.key];
    if (slot.renamed) note(slot.path);
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        (slot.holder as Record<string | number, unknown>)[slot.key] = storableText(value);
        note(slot.path || '(payload)');
        changedAny = true;
      }
    } else if (Array.isArray(value)) {
      const copy = [...value];
      (slot.holder as Record<string | number, unknown>)[slot.key] = copy;
      for (let index = copy.length - 1; index >= 0; index--) pending.push({ holder: copy, key: index, path: join(slot.path, String(index)) });
    } else if (value !== null && typeof value === 'object') {
      // fromEntries defines own properties: a `__proto__` key of the payload stays a key.
      const entries = Object.entries(value).map(([key, item]) => [storableText(key), item, key] as const);
      const copy: Record<string, unknown> = Object.fromEntries(entries.map(([key, item]) => [key, item]));
      const children: Slot[] = [];
      for (const [key, , original] of entries) {
        const renamed = key !== original;
        changedAny ||= renamed;
        children.push({ holder: copy, key, path: join(slot.path, key), renamed });
      }
      (slot.holder as Record<string | number, unknown>)[slot.key] = copy;
      for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
    }
  }
  return { value: changedAny ? box.value : root, paths, count };
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
