// A set of int32 keys (open addressing, linear probing): window fingerprints and anchors of the
// changed files, looked up once per window or anchor of the files they are compared with.

export class KeySet {
  // Read directly by the loops that probe once per window or saved anchor (clone detection, anchors): they cannot afford a call each.
  readonly table: Int32Array;
  readonly used: Uint8Array;
  readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.mask = size - 1;
  }

  add(key: number): void {
    let at = key & this.mask;
    while (this.used[at] && this.table[at] !== key) at = (at + 1) & this.mask;
    this.used[at] = 1;
    this.table[at] = key;
  }

  /** Adds the first `count` of `keys`; those already here (added before, or earlier among them) are added to `repeated` too. */
  addAll(keys: Int32Array, count: number, repeated: KeySet): void {
    const { table, used, mask } = this;
    for (let i = 0; i < count; i++) {
      const key = keys[i];
      let at = key & mask;
      while (used[at] && table[at] !== key) at = (at + 1) & mask;
      if (used[at]) repeated.add(key);
      else {
        used[at] = 1;
        table[at] = key;
      }
    }
  }

  /** Moves the first `count` entries of `keys` that are here, and the same entries of `values`, to the front, in order; returns how many. */
  retain(keys: Int32Array, values: Uint32Array, count: number): number {
    const { table, used, mask } = this;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const key = keys[i];
      let at = key & mask;
      while (used[at] && table[at] !== key) at = (at + 1) & mask;
      if (!used[at]) continue;
      keys[kept] = key;
      values[kept++] = values[i];
    }
    return kept;
  }

  has(key: number): boolean {
    for (let at = key & this.mask; this.used[at]; at = (at + 1) & this.mask) if (this.table[at] === key) return true;
    return false;
  }
}
