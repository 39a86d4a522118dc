// Parses Istanbul's JSON reports: `coverage-summary.json` (json-summary: per-file and total line
// counts) and `coverage-final.json` (json: statement maps and hit counts, from which lines follow).
import { sumFiles, type FileLineCoverage, type ParsedCoverage } from './types.js';

interface SummaryEntry {
  lines?: { total?: number; covered?: number };
}

interface FinalEntry {
  path?: string;
  statementMap?: Record<string, { start?: { line?: number } }>;
  s?: Record<string, number>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseIstanbulSummary(text: string): ParsedCoverage | undefined {
  const json: unknown = JSON.parse(text);
  if (!isObject(json)) return undefined;
  const files: FileLineCoverage[] = [];
  for (const [path, entry] of Object.entries(json)) {
    if (path === 'total' || !isObject(entry)) continue;
    const lines = (entry as SummaryEntry).lines;
    if (typeof lines?.total !== 'number' || typeof lines.covered !== 'number') continue;
    files.push({ path, found: lines.total, hit: lines.covered });
  }
  const total = (json.total as SummaryEntry | undefined)?.lines;
  if (typeof total?.total === 'number' && typeof total.covered === 'number') {
    return { format: 'istanbul-summary', files, total: { found: total.total, hit: total.covered } };
  }
  return files.length > 0 ? { format: 'istanbul-summary', files, total: sumFiles(files) } : undefined;
}

/** Istanbul's own line coverage: a line is covered when any statement starting on it ran. */
export function parseIstanbulFinal(text: string): ParsedCoverage | undefined {
  const json: unknown = JSON.parse(text);
  if (!isObject(json)) return undefined;
  const files: FileLineCoverage[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (!isObject(value)) continue;
    const entry = value as FinalEntry;
    if (!isObject(entry.statementMap) || !isObject(entry.s)) continue;
    const lines = new Map<number, number>();
    for (const [id, location] of Object.entries(entry.statementMap)) {
      const line = location?.start?.line;
      if (typeof line !== 'number') continue;
      lines.set(line, Math.max(lines.get(line) ?? 0, Number(entry.s[id]) || 0));
    }
    const uncovered = [...lines]
      .filter(([, hits]) => hits === 0)
      .map(([line]) => line)
      .sort((a, b) => a - b);
    files.push({ path: typeof entry.path === 'string' ? entry.path : key, found: lines.size, hit: lines.size - uncovered.length, uncovered });
  }
  return files.length > 0 || Object.keys(json).length === 0 ? { format: 'istanbul-final', files, total: sumFiles(files) } : undefined;
}
