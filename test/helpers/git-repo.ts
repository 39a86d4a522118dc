// Builds real git repositories in a temp directory for end-to-end tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TestRepo {
  root: string;
  write(files: Record<string, string | Buffer>): void;
  commit(message: string): string;
  git(...args: string[]): string;
}

export function createGitRepo(files: Record<string, string | Buffer> = {}, prefix = 'codehealth-e2e-'): TestRepo {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const repo: TestRepo = {
    root,
    write(more) {
      for (const [path, content] of Object.entries(more)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    git,
  };
  repo.write(files);
  if (Object.keys(files).length > 0) repo.commit('initial');
  return repo;
}
