// The ~10-file change the PR figures of `npm run bench` analyse: a corpus committed as `main`, then
// N source files spread over its src/ folders, each with a modified line and a new export,
// committed on `feature/bench`. Shared by pr-analysis.mjs (the worker's pipeline) and review.mjs
// (the `codehealth review` command).
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

/** Copies `corpusRoot` to `repo`, commits it, makes the change on a branch; returns the commits and the title. */
export function makeChangeRepo({ corpusRoot, corpusName, repo, files }) {
  const git = (...argv) => execFileSync('git', argv, { cwd: repo, env: ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();
  cpSync(corpusRoot, repo, { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', corpusName);
  const baseSha = git('rev-parse', 'HEAD');
  const sources = readdirSync(repo, { recursive: true })
    .filter((p) => typeof p === 'string' && /(^|\/)src\//.test(p) && !p.startsWith('.git/') && p.endsWith('.ts') && !p.endsWith('.d.ts'))
    .sort();
  const count = Math.max(1, files);
  const step = Math.floor(sources.length / count);
  const changed = Array.from({ length: count }, (_, i) => sources[i * step]);
  changed.forEach((path, i) => {
    const file = join(repo, path);
    const lines = readFileSync(file, 'utf8').split('\n');
    const middle = lines.findIndex((line, n) => n > lines.length / 2 && /^\s*(return|const|let) /.test(line));
    if (middle !== -1) lines[middle] = `${lines[middle]} // reviewed`;
    lines.push(`/** @since 3.22.5 */`, `export const benchScale${i} = (n: number): number => n * ${i + 2}`, '');
    writeFileSync(file, lines.join('\n'));
  });
  const title = `feat: scale helpers in ${count} modules`;
  git('checkout', '-q', '-b', 'feature/bench');
  git('commit', '-q', '-am', title);
  return { baseSha, headSha: git('rev-parse', 'HEAD'), count, title };
}
