// knip 6 as a reference for unused exports and files: installed once into the OS temp directory
// (never into this project's package.json), run with its JSON reporter on a directory.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const KNIP_VERSION = '6.44.2';

export type KnipInstall = { bin: string; error?: undefined } | { bin?: undefined; error: string };

export interface KnipIssue {
  file: string;
  /** Undefined for an unused file. */
  name?: string;
  type: 'export' | 'type' | 'file';
  line?: number;
}

export interface KnipRun {
  issues: KnipIssue[];
  /** What knip printed on stderr (plugin configs it could not load, ...). */
  stderr: string;
}

/** `<tmp>/codehealth-tools/knip-<version>/node_modules/.bin/knip`, installed on first use. */
export function obtainKnip(): KnipInstall {
  const prefix = join(tmpdir(), 'codehealth-tools', `knip-${KNIP_VERSION}`);
  const bin = join(prefix, 'node_modules', 'knip', 'bin', 'knip.js');
  if (existsSync(bin)) return { bin };
  const work = mkdtempSync(join(tmpdir(), 'codehealth-knip-'));
  try {
    execFileSync('npm', ['install', '--prefix', work, `knip@${KNIP_VERSION}`, '--no-audit', '--no-fund', '--silent'], {
      timeout: 300_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    mkdirSync(join(tmpdir(), 'codehealth-tools'), { recursive: true });
    try {
      renameSync(work, prefix);
    } catch (error) {
      // Another process installed it first.
      if (!existsSync(bin)) throw error;
    }
    return { bin };
  } catch (error) {
    return { error: `knip@${KNIP_VERSION} could not be installed with npm: ${(error as Error).message.split('\n')[0]}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs knip in `dir` (exports, types and files only) and reads its JSON report. */
export function runKnip(bin: string, dir: string): KnipRun {
  let stdout: string;
  let stderr = '';
  try {
    stdout = execFileSync(process.execPath, [bin, '--reporter', 'json', '--no-progress', '--no-exit-code', '--include', 'exports,types,files'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    if (!failed.stdout) throw new Error(`knip failed in ${dir}: ${failed.stderr || failed.message}`, { cause: error });
    stdout = failed.stdout;
    stderr = failed.stderr ?? '';
  }
  const report = JSON.parse(stdout) as { issues: Array<Record<string, unknown>> };
  const issues: KnipIssue[] = [];
  for (const entry of report.issues) {
    const file = String(entry.file);
    for (const [key, type] of [
      ['exports', 'export'],
      ['types', 'type'],
    ] as const) {
      for (const item of (entry[key] as Array<{ name: string; line?: number }> | undefined) ?? [])
        issues.push({ file, name: item.name, type, line: item.line });
    }
    if (((entry.files as unknown[] | undefined) ?? []).length > 0) issues.push({ file, type: 'file' });
  }
  return { issues, stderr };
}
