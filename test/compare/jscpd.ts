// jscpd 5.3.3, the reference for clone detection: its npm package is a launcher, the Rust binary
// ships in a per-platform package (jscpd-linux-x64-gnu, …). Both are unpacked with `npm pack`
// into the OS temp directory (never into this project's package.json) and the binary is run
// directly with the JSON reporter.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { obtainNpmPackage } from '../helpers/corpora.js';

export const JSCPD_VERSION = '5.3.3';

export type JscpdInstall = { bin: string; error?: undefined } | { bin?: undefined; error: string };

export interface CloneLocation {
  /** Relative to the scanned directory, with `/` separators. */
  path: string;
  lineStart: number;
  lineEnd: number;
}

export interface JscpdClone {
  a: CloneLocation;
  b: CloneLocation;
  tokens: number;
  format: string;
  /** The first fragment's text, as jscpd prints it. */
  fragment: string;
}

export interface JscpdRun {
  clones: JscpdClone[];
  /** Wall time of the jscpd process. */
  ms: number;
  statistics: { clones: number; duplicatedLines: number; lines: number; percentage: number; sources: number };
}

/** The platform binary of jscpd 5.3.3, unpacked once, or why it could not be had. */
export function obtainJscpd(): JscpdInstall {
  const launcher = obtainNpmPackage('jscpd', JSCPD_VERSION, 'platform-map.js');
  if (launcher.error !== undefined) return { error: launcher.error };
  // The launcher's own table says which package holds this platform's binary.
  const platforms = createRequire(import.meta.url)(join(launcher.root, 'platform-map.js')) as {
    getPlatformKey(): string | undefined;
    PLATFORM_MAP: Record<string, { packageName: string }>;
  };
  const key = platforms.getPlatformKey();
  if (!key) return { error: `jscpd ${JSCPD_VERSION} has no binary for ${process.platform}/${process.arch}` };
  const binary = process.platform === 'win32' ? 'jscpd.exe' : 'jscpd';
  const pkg = obtainNpmPackage(platforms.PLATFORM_MAP[key].packageName, JSCPD_VERSION, join('bin', binary));
  if (pkg.error !== undefined) return { error: pkg.error };
  return { bin: join(pkg.root, 'bin', binary) };
}

interface ReportFile {
  name: string;
  start: number;
  end: number;
}

/** Runs jscpd on the JavaScript/TypeScript files under `dir` with the given thresholds. */
export function runJscpd(bin: string, dir: string, options: { minTokens: number; minLines: number }): JscpdRun {
  const output = mkdtempSync(join(tmpdir(), 'codehealth-jscpd-'));
  try {
    const args = [dir, '--min-tokens', String(options.minTokens), '--min-lines', String(options.minLines)];
    args.push('--format', 'javascript,typescript,jsx,tsx', '--reporters', 'json', '--output', output, '--absolute', '--silent');
    const started = performance.now();
    execFileSync(bin, args, { stdio: 'pipe', timeout: 300_000 });
    const ms = performance.now() - started;
    const report = JSON.parse(readFileSync(join(output, 'jscpd-report.json'), 'utf8')) as {
      duplicates: Array<{ firstFile: ReportFile; secondFile: ReportFile; tokens: number; format: string; fragment: string }>;
      statistics: { total: JscpdRun['statistics'] };
    };
    const location = (file: ReportFile): CloneLocation => ({
      path: relative(dir, file.name).split('\\').join('/'),
      lineStart: file.start,
      lineEnd: file.end,
    });
    return {
      clones: report.duplicates.map((d) => ({ a: location(d.firstFile), b: location(d.secondFile), tokens: d.tokens, format: d.format, fragment: d.fragment })),
      ms,
      statistics: report.statistics.total,
    };
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}
