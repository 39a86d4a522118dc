// Pull requests: statistics and the list of analyses; one analysis with intent, readiness and its
// reasons, the health projection, impact zones, scope drift, conflicts and stack.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { navigate, useLocation, withQuery } from '../router.js';
import type { PrAnalysis, PrListItem, PrStats, Repository } from '../types.js';
import { Badge, Empty, ErrorNote, Field, Grade, Load, fmtDate, fmtNumber, fmtSigned, label, plural } from '../ui.js';

const PAGE = 20;
const READINESS_TONE: Record<string, string> = { ready: 'low', needs_review: 'medium', blocked: 'critical' };

export function PullRequestsPage({ projectId }: { projectId: string }) {
  const { path, query } = useLocation();
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const stats = useApi<PrStats>(`/projects/${projectId}/pr-analyses/stats`);
  const list = useApi<{ analyses: PrListItem[]; total: number }>(`/projects/${projectId}/pr-analyses?limit=${PAGE}&offset=${offset}`);
  return (
    <>
      <section class="card" aria-labelledby="prstats-h">
        <h2 id="prstats-h">Statistics</h2>
        <Load state={stats} label="Loading statistics…">
          {(s) => (
            <dl class="stats">
              {(
                [
                  ['Analyses', s.total_count],
                  ['Completed', s.completed_count],
                  ['Running', s.running_count],
                  ['Failed', s.failed_count],
                  ['Ready', s.ready_count],
                  ['Needs review', s.needs_review_count],
                  ['Blocked', s.blocked_count],
                ] as const
              ).map(([name, value]) => (
                <div class="stat" key={name}>
                  <dt>{name}</dt>
                  <dd class="big">{value}</dd>
                </div>
              ))}
              <div class="stat">
                <dt>Average duration</dt>
                <dd class="big">{fmtNumber(s.avg_duration_seconds, 1)} s</dd>
              </div>
            </dl>
          )}
        </Load>
      </section>
      <AnalyzePullRequest projectId={projectId} />
      <Load state={list} label="Loading pull-request analyses…">
        {(data) =>
          data.analyses.length === 0 ? (
            <Empty>No pull request analysed yet. Analyses start on pull-request events from the code host, or by POST …/prs/&#123;number&#125;/analyze.</Empty>
          ) : (
            <section aria-labelledby="prlist-h">
              <h2 id="prlist-h">Analyses</h2>
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">PR</th>
                      <th scope="col">Intent</th>
                      <th scope="col">Readiness</th>
                      <th scope="col">Status</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.analyses.map((a) => (
                      <tr key={a.id}>
                        <th scope="row">
                          <a href={`/projects/${projectId}/pulls/${a.id}`}>
                            #{a.pr_number} <span class="muted small">{a.head_sha.slice(0, 7)}</span>
                          </a>
                        </th>
                        <td>{a.classification ? label(a.classification.primary_intent) : '—'}</td>
                        <td>
                          {a.merge_readiness ? <Badge tone={READINESS_TONE[a.merge_readiness.status] ?? 'info'}>{label(a.merge_readiness.status)}</Badge> : '—'}
                        </td>
                        <td>{a.status}</td>
                        <td>{fmtDate(a.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <nav class="pager" aria-label="Pages of analyses">
                <button
                  type="button"
                  disabled={offset === 0}
                  onClick={() => navigate(path + withQuery(query, { offset: Math.max(0, offset - PAGE) || undefined }))}
                >
                  Previous page
                </button>
                <button type="button" disabled={offset + PAGE >= data.total} onClick={() => navigate(path + withQuery(query, { offset: offset + PAGE }))}>
                  Next page
                </button>
              </nav>
            </section>
          )
        }
      </Load>
    </>
  );
}

/** Analyses start on pull-request events; this starts one by hand (a local repository has no events). */
function AnalyzePullRequest({ projectId }: { projectId: string }) {
  const repos = useApi<Repository[]>(`/projects/${projectId}/repos`);
  const [repoId, setRepoId] = useState('');
  const [number, setNumber] = useState('');
  const action = useAction();
  const list = repos.data ?? [];
  if (repos.data !== undefined && list.length === 0) return null;
  return (
    <section class="card" aria-labelledby="analyze-h">
      <h2 id="analyze-h">Analyse a pull request</h2>
      <form
        class="grid-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const repository = repoId || list[0]?.id;
          let started: { id: string } | undefined;
          if (
            await action.run(
              async () => (started = await api(`/projects/${projectId}/repos/${repository}/prs/${Number(number)}/analyze`, { method: 'POST', body: {} })),
            )
          ) {
            navigate(`/projects/${projectId}/pulls/${started!.id}`);
          }
        }}
      >
        <Field label="Repository">
          <select value={repoId || list[0]?.id} onChange={(e) => setRepoId((e.target as HTMLSelectElement).value)}>
            {list.map((repo) => (
              <option key={repo.id} value={repo.id}>
                {repo.full_name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Pull request number">
          <input type="number" min={1} required value={number} onInput={(e) => setNumber((e.target as HTMLInputElement).value)} />
        </Field>
        <div>
          <button type="submit" class="primary" disabled={action.busy || list.length === 0}>
            Analyse
          </button>
        </div>
      </form>
      <ErrorNote error={action.error} />
    </section>
  );
}

export function PullRequestPage({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  const analysis = useApi<PrAnalysis>(`/projects/${projectId}/pr-analyses/${analysisId}`);
  const status = analysis.data?.status;
  useEffect(() => {
    if (status !== 'pending' && status !== 'running') return;
    const timer = setTimeout(analysis.reload, 1500);
    return () => clearTimeout(timer);
  }, [status, analysis.data]);
  return (
    <>
      <p>
        <a href={`/projects/${projectId}/pulls`}>← All pull requests</a>
      </p>
      <Load state={analysis} label="Loading the analysis…">
        {(a) => <Analysis a={a} projectId={projectId} />}
      </Load>
    </>
  );
}

function Analysis({ a, projectId }: { a: PrAnalysis; projectId: string }) {
  const readiness = a.merge_readiness;
  const projection = a.health_projection;
  return (
    <div class="dashboard">
      <section class="card wide" aria-labelledby="pr-h">
        <h2 id="pr-h">
          Pull request #{a.pr_number} <span class="muted small">at {a.head_sha.slice(0, 12)}</span>
        </h2>
        <p class="muted" role="status" aria-live="polite">
          {a.status === 'pending' || a.status === 'running' ? `Analysis ${a.status}…` : a.status} · started {fmtDate(a.started_at ?? a.created_at)} · completed{' '}
          {fmtDate(a.completed_at)}
        </p>
        {a.failure_reason ? <p class="error">The analysis failed: {a.failure_reason}</p> : null}
        {a.classification ? (
          <>
            <p>
              <strong>Intent:</strong> {label(a.classification.primary_intent)}
              {a.classification.secondary_intents.length > 0 ? ` (also ${a.classification.secondary_intents.map(label).join(', ')})` : ''}
            </p>
            <p>{a.classification.summary}</p>
            {a.classification.risk_signals.length > 0 ? (
              <p>
                <strong>Risk signals:</strong> {a.classification.risk_signals.join(', ')}
              </p>
            ) : null}
          </>
        ) : null}
      </section>
      <section class="card" aria-labelledby="ready-h">
        <h2 id="ready-h">Merge readiness</h2>
        {readiness ? (
          <>
            <p>
              <Badge tone={READINESS_TONE[readiness.status] ?? 'info'}>{label(readiness.status)}</Badge> {readiness.blocking_count} blocking,{' '}
              {readiness.advisory_count} advisory, {readiness.info_count} info · confidence {fmtNumber(readiness.confidence)} %
            </p>
            {readiness.reasons?.length ? (
              <ul>
                {readiness.reasons.map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            ) : null}
            {readiness.confidence_reasons?.length ? (
              <>
                <h3>Why the confidence is not full</h3>
                <ul>
                  {readiness.confidence_reasons.map((r, i) => (
                    <li key={i}>{r}</li>
                  ))}
                </ul>
              </>
            ) : null}
            <p>
              <a href={`/projects/${projectId}/issues?context=${a.analysis_run_id}`}>Issues of this analysis</a>
            </p>
          </>
        ) : (
          <Empty>No verdict.</Empty>
        )}
      </section>
      <section class="card" aria-labelledby="proj-h">
        <h2 id="proj-h">Health projection</h2>
        {projection ? (
          <>
            <p class="grade-row">
              <Grade grade={projection.current_grade} score={projection.current_overall} /> →{' '}
              <Grade grade={projection.projected_grade} score={projection.projected_overall} />
              <span>
                {fmtNumber(projection.current_overall, 1)} → {fmtNumber(projection.projected_overall, 1)} ({fmtSigned(projection.overall_delta)}) ·{' '}
                {projection.impact_rating}
              </span>
            </p>
            {a.health_impact ? (
              <p class="muted">
                {plural(a.health_impact.issues_added, 'issue')} added, {a.health_impact.issues_fixed} fixed
                {a.health_impact.issues_new !== undefined
                  ? ` (${a.health_impact.issues_new} new, ${a.health_impact.issues_worsened ?? 0} made worse; ${a.health_impact.issues_pre_existing ?? 0} already in the changed files, ${a.health_impact.issues_improved ?? 0} of them improved)`
                  : ''}
              </p>
            ) : null}
            <ul class="plain">
              {projection.category_deltas
                .filter((d) => d.delta !== 0 || d.issues_in_pr > 0)
                .map((d) => (
                  <li key={d.category}>
                    {label(d.category)}: {fmtNumber(d.current_score)} → {fmtNumber(d.projected_score)} ({fmtSigned(d.delta)}), {plural(d.issues_in_pr, 'issue')}{' '}
                    in the PR
                  </li>
                ))}
            </ul>
          </>
        ) : (
          <Empty>No projection.</Empty>
        )}
      </section>
      <section class="card wide" aria-labelledby="zones-h">
        <h2 id="zones-h">Impact zones</h2>
        {a.impact_zones?.length ? (
          <ul class="plain">
            {a.impact_zones.map((zone) => (
              <li key={zone.name}>
                <strong>{zone.name}</strong> <Badge tone={zone.risk === 'high' ? 'high' : zone.risk === 'medium' ? 'medium' : 'low'}>{zone.risk} risk</Badge>{' '}
                {zone.scope_classification}
                <p>{zone.summary}</p>
                <p class="muted small">{zone.files.map((f) => `${f.path} (+${f.additions}/−${f.deletions})`).join(', ')}</p>
              </li>
            ))}
          </ul>
        ) : (
          <Empty>No impact zone.</Empty>
        )}
      </section>
      <section class="card" aria-labelledby="drift2-h">
        <h2 id="drift2-h">Scope drift</h2>
        {a.scope_drift?.length ? (
          <ul>
            {a.scope_drift.map((d, i) => (
              <li key={i}>
                {d.description} — <span class="muted">{d.reason}</span> <span class="muted small">({d.files.join(', ')})</span>
              </li>
            ))}
          </ul>
        ) : (
          <Empty>No change outside the pull request’s stated scope.</Empty>
        )}
      </section>
      <section class="card" aria-labelledby="conf-h">
        <h2 id="conf-h">Conflicts and stack</h2>
        <p>{a.conflicts?.summary || 'No conflict check.'}</p>
        {a.conflicts?.conflicts.length ? (
          <ul>
            {a.conflicts.conflicts.map((c) => (
              <li key={c.pr_number}>
                #{c.pr_number} {c.title}: {c.semantic_conflict} <span class="muted">({c.overlapping_files.join(', ')})</span> — {c.resolution_suggestion}
              </li>
            ))}
          </ul>
        ) : null}
        <p>
          {a.stacked_prs
            ? a.stacked_prs.is_stacked
              ? a.stacked_prs.summary || 'Part of a stack.'
              : a.stacked_prs.summary || 'Not stacked.'
            : 'No stack information.'}
        </p>
      </section>
    </div>
  );
}
