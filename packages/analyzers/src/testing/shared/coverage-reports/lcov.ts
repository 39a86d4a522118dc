// Parses lcov tracefiles (`lcov.info`): `SF` starts a file, `DA:<line>,<hits>` lists lines, `LF`/`LH`
// give the file's found/hit line counts, `end_of_record` closes it.
import { sumFiles, type FileLineCoverage, type ParsedCoverage } from './types.js';

export function parseLcov(text: string): ParsedCoverage {
  const files: FileLineCoverage[] = [];
  let current: { path: string; lines: Map<number, number>; lf?: number; lh?: number } | undefined;
  const close = () => {
    if (!current) return;
    const uncovered = [...current.lines]
      .filter(([, hits]) => hits === 0)
      .map(([line]) => line)
      .sort((a, b) => a - b);
    const hitFromLines = current.lines.size - uncovered.length;
    files.push({
      path: current.path,
      // LF/LH are the tool's own counts; DA lines stand in when a writer omits them.
      found: current.lf ?? current.lines.size,
      hit: current.lh ?? hitFromLines,
      uncovered,
    });
    current = undefined;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('SF:')) {
      close();
      current = { path: line.slice(3), lines: new Map() };
    } else if (!current) {
      continue;
    } else if (line.startsWith('DA:')) {
      const [lineNo, hits] = line.slice(3).split(',');
      const number = Number(lineNo);
      const count = Number(hits);
      if (Number.isInteger(number) && Number.isFinite(count)) current.lines.set(number, Math.max(current.lines.get(number) ?? 0, count));
    } else if (line.startsWith('LF:')) {
      current.lf = Number(line.slice(3)) || 0;
    } else if (line.startsWith('LH:')) {
      current.lh = Number(line.slice(3)) || 0;
    } else if (line === 'end_of_record') {
      close();
    }
  }
  close();
  return { format: 'lcov', files, total: sumFiles(files) };
}
