// Onboarding's detection for the security analyzer: one entry per package root with TS/JS sources.
import type { AnalyzerDetection, RepoSnapshot } from '@codehealth/engine/kit';

const SCRIPT = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;

const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.');

/** The nearest directory at or above `dir` that is a package root, if any. */
function ownerOf(dir: string, roots: ReadonlySet<string>): string | undefined {
  for (let current = dir; ; current = dirOf(current)) {
    if (roots.has(current)) return current;
    if (current === '.') return undefined;
  }
}

export function detectSecurity(repo: RepoSnapshot): AnalyzerDetection[] {
  const roots = new Set(repo.files.filter((f) => f.kind === 'config' && /(?:^|\/)package\.json$/.test(f.path)).map((f) => dirOf(f.path)));
  const counts = new Map<string, { files: number; typescript: number }>();
  for (const file of repo.files) {
    if (file.kind !== 'source' || !SCRIPT.test(file.path)) continue;
    // Sources outside any package (a repository without package.json) belong to the root.
    const owner = ownerOf(dirOf(file.path), roots) ?? '.';
    const count = counts.get(owner) ?? { files: 0, typescript: 0 };
    count.files++;
    if (TYPESCRIPT.test(file.path)) count.typescript++;
    counts.set(owner, count);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a === '.' ? -1 : b === '.' ? 1 : a.localeCompare(b)))
    .map(([path, count]) => {
      const language = count.typescript > 0 ? 'typescript' : 'javascript';
      return {
        language,
        path,
        enabled: true,
        description:
          `Security checks on ${count.files} ${language === 'typescript' ? 'TypeScript/JavaScript' : 'JavaScript'} source file${count.files === 1 ? '' : 's'}: ` +
          'code evaluation, command and SQL injection, hard-coded secrets, weak cryptography, insecure randomness, ' +
          'disabled TLS verification, path traversal and prototype pollution.',
      };
    });
}
