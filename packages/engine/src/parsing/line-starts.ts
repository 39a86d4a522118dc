// Rows of a text as the tree-sitter binding counts them (a row ends at `\n`), and points by offset.

/** The text index where each row starts. */
export function lineStartsOf(source: string): Int32Array {
  let count = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count);
  let row = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) starts[row++] = at + 1;
  return starts;
}

/** 0-based row and column (UTF-16 units) of a text index, given the rows' starts. */
export function pointIn(starts: Int32Array, offset: number): { row: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { row: low, column: offset - starts[low] };
}
