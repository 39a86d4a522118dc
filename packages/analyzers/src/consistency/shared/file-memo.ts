// Per-file observation work kept from one run to the next, so that a run following another in the
// same thread (a pull request's head run after its base's) redoes it for changed files only.

/**
 * Values computed from one file's summary, keyed by an object of that summary which a later run
 * shares when the file is unchanged: the warm rules worker adopts the very same summaries, and the
 * main thread's derived runs shallow-copy them (`{ ...cached, cached: true }`), which keeps their
 * nested objects (`facts[id]`, `module`, `functions`). A WeakMap lets a summary and its value go
 * together. The key alone is not enough: the value also depends on other parts of the summary
 * and on options, which are compared (by identity) before a stored value is reused.
 *
 * Stored values are shared between runs: callers must never mutate them (copy an observation to
 * annotate it).
 */
export class FileMemo<Key extends object, Value> {
  private readonly entries = new WeakMap<Key, { inputs: readonly unknown[]; value: Value }>();

  get(key: Key, inputs: readonly unknown[], compute: () => Value): Value {
    const entry = this.entries.get(key);
    if (entry && entry.inputs.length === inputs.length && entry.inputs.every((input, i) => input === inputs[i])) return entry.value;
    const value = compute();
    this.entries.set(key, { inputs, value });
    return value;
  }
}

/** Appends without spreading: a file can have more observations than a call takes arguments. */
export function append<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]);
}
