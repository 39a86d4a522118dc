// The lexer's output while it grows: parallel typed arrays of token hashes, lines and offsets.

export class TokenBuffer {
  count = 0;
  hashes: Int32Array;
  rows: Uint32Array;
  starts: Uint32Array;
  /** Pairs `[token index, last line]` for tokens that span several lines. */
  readonly multiline: number[] = [];

  constructor(capacity: number) {
    this.hashes = new Int32Array(capacity);
    this.rows = new Uint32Array(capacity);
    this.starts = new Uint32Array(capacity);
  }

  push(hash: number, row: number, start: number): void {
    if (this.count === this.hashes.length) {
      const hashes = new Int32Array(this.count * 2);
      const rows = new Uint32Array(this.count * 2);
      const starts = new Uint32Array(this.count * 2);
      hashes.set(this.hashes);
      rows.set(this.rows);
      starts.set(this.starts);
      [this.hashes, this.rows, this.starts] = [hashes, rows, starts];
    }
    this.hashes[this.count] = hash;
    this.rows[this.count] = row;
    this.starts[this.count++] = start;
  }
}
