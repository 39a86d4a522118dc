// A real repository that produces many findings of a few rules, assessed by the real engine: the
// input of the tests on large runs (recording in batches, caps per rule, retention). Each function
// carries magic numbers, loose equality, a non-null assertion, a TODO and an empty catch, so a
// file of F functions gives about 12·F findings.
import { createEngine } from '@codehealth/engine';
import type { AssessedVersion } from './assessed-repo.js';
import { createGitRepo } from './git-repo.js';

export function noisyFile(index: number, functions: number): string {
  let src = `// generated file ${index}\n`;
  for (let i = 0; i < functions; i++) {
    src += `export function f${index}_${i}(a: number, b: any, c?: { v: number }): number {
  // TODO: name these numbers ${index}.${i}
  let x = a * ${7 + i} + ${13 + (index % 50)};
  if (a == ${37 + i}) x += ${41 + i};
  if (b != null && b.k == '${i}') x -= ${43 + i};
  try { x += JSON.parse(String(b)).n * ${59 + i}; } catch (e) {}
  return x + c!.v * ${61 + i};
}
`;
  }
  return src;
}

/** `files` files of `functions` functions each, committed and assessed (in this thread, no cache). */
export async function assessNoisyRepo(files = 40, functions = 6): Promise<AssessedVersion> {
  const sources: Record<string, string> = { 'package.json': JSON.stringify({ name: 'noisy', type: 'module' }) };
  for (let f = 0; f < files; f++) sources[`src/part${Math.floor(f / 20)}/file-${f}.ts`] = noisyFile(f, functions);
  const repo = createGitRepo(sources, 'codehealth-noisy-');
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  return { sha: repo.git('rev-parse', 'HEAD'), result: await engine.analyze(repo.root) };
}
