// Parses Cobertura XML (`cobertura-coverage.xml`, `coverage.xml`): `<source>` directories, and per
// `<class filename>` its `<line number hits>` elements. A small scanner, not a general XML parser:
// the format is flat and machine-written.
import { sumFiles, type FileLineCoverage, type ParsedCoverage } from './types.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]);
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) out.set(match[1], decode(match[3] ?? match[4]));
  return out;
}

export function parseCobertura(text: string): ParsedCoverage | undefined {
  const root = /<coverage\b([^>]*)>/.exec(text);
  if (!root) return undefined;
  const sources = [...text.matchAll(/<source>([^<]*)<\/source>/g)].map((m) => decode(m[1].trim())).filter(Boolean);
  const byFile = new Map<string, Map<number, number>>();
  for (const match of text.matchAll(/<class\b([^>]*?)(\/>|>([\s\S]*?)<\/class>)/g)) {
    const filename = attributes(match[1]).get('filename');
    if (!filename) continue;
    let lines = byFile.get(filename);
    if (!lines) byFile.set(filename, (lines = new Map()));
    for (const line of (match[3] ?? '').matchAll(/<line\b([^>]*)\/?>/g)) {
      const attrs = attributes(line[1]);
      const number = Number(attrs.get('number'));
      const hits = Number(attrs.get('hits'));
      if (Number.isInteger(number) && Number.isFinite(hits)) lines.set(number, Math.max(lines.get(number) ?? 0, hits));
    }
  }
  const files: FileLineCoverage[] = [...byFile].map(([path, lines]) => {
    const uncovered = [...lines]
      .filter(([, hits]) => hits === 0)
      .map(([line]) => line)
      .sort((a, b) => a - b);
    return { path, found: lines.size, hit: lines.size - uncovered.length, uncovered };
  });
  const rootAttrs = attributes(root[1]);
  const valid = Number(rootAttrs.get('lines-valid'));
  const covered = Number(rootAttrs.get('lines-covered'));
  let total = sumFiles(files);
  if (Number.isFinite(valid) && Number.isFinite(covered) && valid > 0) total = { found: valid, hit: covered };
  const rate = Number(rootAttrs.get('line-rate'));
  if (total.found === 0 && Number.isFinite(rate)) return { format: 'cobertura', files, total, sources, rate };
  return { format: 'cobertura', files, total, sources };
}
