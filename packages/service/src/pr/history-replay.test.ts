// Replays the first commits of this repository's own history as PRs (each commit's parent as
// base, the commit as head) through the whole pipeline, and checks that what comes out is sane
// against facts read independently from git: the files, the counts, the readiness arithmetic,
// the projection, and that head's per-file pass reused the base's summaries. Skipped with a
// message in a shallow clone, where that history is absent.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrAnalysisResultSchema } from '../api/pr-analyses.js';
import { createEngine, type Engine, SEVERITIES, issueFingerprint } from '@codehealth/engine';
import { localCheckouts, type CommitCheckout } from '@codehealth/engine/internal';
import { PrAnalysisPipeline } from '@codehealth/engine/internal';
import { issueWeight } from '@codehealth/engine/internal';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const shallow = (() => {
  try {
    return git('rev-parse', '--is-shallow-repository') === 'true' || git('rev-list', '--count', 'HEAD') === '1';
  } catch {
    return true;
  }
})();
/** Commits 2-5 of the history: the engine's first pieces, small enough to replay quickly. */
const commits = shallow ? [] : git('rev-list', '--reverse', '--first-parent', 'HEAD').split('\n').slice(0, 5);

if (shallow) console.warn('history replay skipped: this clone has no history (shallow or single commit)');

describe.skipIf(shallow)("replaying this repository's first commits as PRs", () => {
  let engine: Engine;
  const checkouts = localCheckouts(root);
  const open: CommitCheckout[] = [];
  beforeAll(async () => {
    engine = await createEngine({ cacheDir: false, workers: 0 });
  });
  afterAll(async () => {
    for (const checkout of open) await checkout.dispose();
  });

  it.each(commits.slice(1).map((sha, i) => [i + 2, commits[i]!, sha]))('commit %i', async (_n, baseSha, headSha) => {
    const subject = git('log', '-1', '--format=%s', headSha);
    const head = await checkouts.checkout(headSha);
    open.push(head);
    const pr = { number: 1, title: subject, body: '', baseBranch: 'main', headBranch: 'main', baseSha, headSha, author: 'replay' };
    const out = await new PrAnalysisPipeline({ engine }).run({ headDir: head.path, checkouts, pr });
    const r = out.result;
    expect(PrAnalysisResultSchema.safeParse(r).success).toBe(true);

    // The diff agrees with git's own account of the commit.
    const names = git('diff', '--name-only', '-M', '-C', baseSha, headSha).split('\n').filter(Boolean).sort();
    expect(out.diff.files.map((f) => f.path).sort()).toEqual(names);
    const stat = git('diff', '--shortstat', '-M', '-C', baseSha, headSha);
    const added = Number(/(\d+) insertion/.exec(stat)?.[1] ?? 0);
    const deleted = Number(/(\d+) deletion/.exec(stat)?.[1] ?? 0);
    expect(out.diff.files.reduce((n, f) => n + f.additions, 0)).toBe(added);
    expect(out.diff.files.reduce((n, f) => n + f.deletions, 0)).toBe(deleted);
    expect(r.classification.summary).toMatch(new RegExp(`to ${names.length} files? \\(\\+${added}/-${deleted}`));

    // Readiness is the documented arithmetic over the issues the PR added.
    const introduced = out.findings.filter((f) => out.newFingerprints.has(issueFingerprint(f)));
    expect(introduced.length).toBe(r.health_impact.issues_added);
    expect(r.merge_readiness.blocking_count + r.merge_readiness.advisory_count + r.merge_readiness.info_count).toBe(r.health_impact.issues_added);
    expect(r.merge_readiness.blocking_count).toBe(introduced.filter((f) => issueWeight(f) === 'blocking').length);
    expect(r.merge_readiness.status).toBe(r.merge_readiness.blocking_count > 0 ? 'blocked' : r.merge_readiness.advisory_count > 0 ? 'needs_review' : 'ready');

    // The projection is consistent with itself and with the issues of the run.
    const p = r.health_projection;
    expect(p.overall_delta).toBeCloseTo(p.projected_overall - p.current_overall, 1);
    expect(p.category_deltas.reduce((n, d) => n + d.issues_in_pr, 0)).toBe(out.findings.length);
    expect(
      out.findings.every((f) => SEVERITIES.includes(f.severity) && (out.scope.changed.includes(f.filePath) || out.scope.neighbours.includes(f.filePath))),
    ).toBe(true);

    // Head reused every summary: the base analysis filled the cache with the unchanged files and the
    // diff's symbol reader summarised the changed ones, so head's run parsed nothing.
    expect(out.headFiles.analysed).toBe(0);
    expect(out.headFiles.graphOnly).toBe(0);
    expect(out.headFiles.fromCache).toBeGreaterThan(0);
  });
});
