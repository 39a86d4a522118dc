// A set of int32 keys (open addressing, linear probing): window fingerprints and anchors of the
// changed files, looked up once per window or anchor of the files they are compared with.

export class KeySet {
  // Read directly by the kept-window filter of clone detection, whose loop cannot afford a call per window.
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

  has(key: number): boolean {
    for (let at = key & this.mask; this.used[at]; at = (at + 1) & this.mask) if (this.table[at] === key) return true;
    return false;
  }
}
