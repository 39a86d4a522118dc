// The health dashboard: grade, category scores and their trend, codebase dynamics, conventions,
// test quality, drift alerts; trigger an assessment and watch it to the end.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { TrendChart } from '../trend-chart.js';
import { CATEGORY_KEYS, type Assessment, type HealthCategory, type HealthDashboard } from '../types.js';
import { Badge, Empty, ErrorNote, Grade, Load, fmtDate, fmtNumber, fmtSigned, label, plural } from '../ui.js';

const FALLBACK_COLORS = ['#2563eb', '#dc2626', '#d97706', '#059669', '#7c3aed', '#0891b2', '#db2777', '#4b5563', '#65a30d'];

export function HealthPage({ projectId }: { projectId: string }) {
  const dashboard = useApi<HealthDashboard>(`/projects/${projectId}/health`);
  const categories = useApi<HealthCategory[]>(`/projects/${projectId}/health/categories`);
  return (
    <>
      <TriggerAssessment projectId={projectId} onFinished={dashboard.reload} />
      <Load state={dashboard} label="Loading the health dashboard…">
        {(data) => <Dashboard data={data} categories={categories.data ?? []} projectId={projectId} onChanged={dashboard.reload} />}
      </Load>
    </>
  );
}

function TriggerAssessment({ projectId, onFinished }: { projectId: string; onFinished: () => void }) {
  const [watching, setWatching] = useState<string>();
  const [state, setState] = useState<Assessment>();
  const action = useAction();
  useEffect(() => {
    if (!watching) return;
    let stopped = false;
    const poll = async () => {
      while (!stopped) {
        try {
          const assessment = await api<Assessment>(`/projects/${projectId}/health/assessments/${watching}`);
          setState(assessment);
          if (assessment.status === 'completed' || assessment.status === 'failed') {
            onFinished();
            return;
          }
        } catch (error) {
          if ((error as { status?: number }).status !== 404) throw error; // not recorded yet
        }
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
    };
    poll().catch(() => {});
    return () => void (stopped = true);
  }, [watching]);
  const trigger = () =>
    action.run(async () => {
      setState(undefined);
      const queued = await api<{ assessment_id: string }>(`/projects/${projectId}/health/trigger`, { method: 'POST' });
      setWatching(queued.assessment_id);
    });
  const running = watching && (!state || state.status === 'pending' || state.status === 'running');
  return (
    <div class="toolbar">
      <button type="button" class="primary" onClick={trigger} disabled={action.busy || Boolean(running)}>
        {running ? 'Assessing…' : 'Run an assessment'}
      </button>
      <span role="status" aria-live="polite" class="muted">
        {watching ? (state ? `Assessment ${state.status}${state.status === 'completed' ? `: grade ${state.overall_grade}` : ''}` : 'Assessment queued') : ''}
      </span>
      <ErrorNote error={action.error} />
    </div>
  );
}

function Dashboard({
  data,
  categories,
  projectId,
  onChanged,
}: {
  data: HealthDashboard;
  categories: HealthCategory[];
  projectId: string;
  onChanged: () => void;
}) {
  const latest = data.latest_assessment;
  if (!latest) {
    return <Empty>No assessment yet. Add a repository (onboarding runs the first assessment) or run one above.</Empty>;
  }
  const nameOf = (key: string) => categories.find((c) => c.key === key)?.name ?? label(key);
  const completed = data.trend_data.filter((point) => point.status === 'completed');
  const series = [
    { key: 'overall', name: 'Overall', color: FALLBACK_COLORS[0]!, values: completed.map((p) => p.overall_score) },
    ...CATEGORY_KEYS.map((key, i) => ({
      key,
      name: nameOf(key),
      color: categories.find((c) => c.key === key)?.color || FALLBACK_COLORS[(i + 1) % FALLBACK_COLORS.length]!,
      values: completed.map((p) => p[`${key}_score`] ?? null),
    })),
  ];
  const times = completed.map((p) => new Date(p.completed_at ?? p.created_at));
  // Assessments of one day are told apart by their time.
  const oneDay = new Set(times.map((t) => t.toDateString())).size === 1 && times.length > 1;
  const labels = times.map((t) =>
    oneDay ? t.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : t.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
  );
  return (
    <div class="dashboard">
      <section class="card overview" aria-labelledby="grade-h">
        <h2 id="grade-h">Overall health</h2>
        <div class="grade-row">
          <Grade grade={latest.overall_grade} score={latest.overall_score} />
          <div>
            <p class="big">{fmtNumber(latest.overall_score)} / 100</p>
            <p class="muted">
              {latest.status} · {latest.trigger_type} · {fmtDate(latest.completed_at ?? latest.created_at)}
            </p>
            <p>
              <Badge tone="critical">{latest.critical_count} critical</Badge> <Badge tone="high">{latest.high_count} high</Badge>{' '}
              <Badge tone="medium">{latest.medium_count} medium</Badge> <Badge tone="low">{latest.low_count} low</Badge>
            </p>
            <p class="muted">
              {fmtNumber(latest.total_lines_of_code)} lines, {fmtNumber(latest.test_lines_of_code)} of them tests
            </p>
          </div>
        </div>
      </section>
      <section class="card span2" aria-labelledby="cat-h">
        <h2 id="cat-h">Categories</h2>
        <ul class="scores">
          {CATEGORY_KEYS.map((key) => {
            const score = latest[`${key}_score`];
            const breakdown = data.category_breakdown.find((b) => b.category === key);
            return (
              <li key={key}>
                <span class="score-name">{nameOf(key)}</span>
                <meter min={0} max={100} low={60} high={80} optimum={100} value={score} aria-label={`${nameOf(key)} score`} />
                <span class="score-value">{fmtNumber(score)}</span>
                {breakdown ? <span class="muted small">{plural(breakdown.count, 'issue')}</span> : null}
              </li>
            );
          })}
        </ul>
      </section>
      <section class="card wide" aria-labelledby="trend-h">
        <h2 id="trend-h">Trend over assessments</h2>
        <TrendChart title="Scores over assessments" labels={labels} series={series} />
      </section>
      <Dynamics data={data} />
      <Conventions data={data} />
      <TestQuality data={data} />
      <DriftAlerts data={data} projectId={projectId} onChanged={onChanged} />
      {data.repo_stats.length > 0 ? (
        <section class="card wide" aria-labelledby="repos-h">
          <h2 id="repos-h">Repositories</h2>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Repository</th>
                  <th scope="col">Language</th>
                  <th scope="col">Lines</th>
                  <th scope="col">Test lines</th>
                  <th scope="col">+/− 30 days</th>
                  <th scope="col">PRs</th>
                </tr>
              </thead>
              <tbody>
                {data.repo_stats.map((repo) => (
                  <tr key={repo.id}>
                    <th scope="row">{repo.full_name}</th>
                    <td>{repo.language || '—'}</td>
                    <td>{fmtNumber(repo.total_loc)}</td>
                    <td>{fmtNumber(repo.test_loc)}</td>
                    <td>
                      +{fmtNumber(repo.lines_added_30d)} / −{fmtNumber(repo.lines_deleted_30d)}
                    </td>
                    <td>{repo.pr_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}

function Stat({ name, value, change, hint }: { name: string; value: string; change?: number | null; hint?: string }) {
  return (
    <div class="stat">
      <dt>{name}</dt>
      <dd>
        <span class="big">{value}</span>
        {change === undefined ? null : <span class="muted"> ({fmtSigned(change)})</span>}
        {hint ? <small class="muted block">{hint}</small> : null}
      </dd>
    </div>
  );
}

function Dynamics({ data }: { data: HealthDashboard }) {
  const d = data.codebase_dynamics;
  return (
    <section class="card" aria-labelledby="dyn-h">
      <h2 id="dyn-h">Codebase dynamics</h2>
      {d ? (
        <dl class="stats">
          <Stat name="Churn rate" value={fmtNumber(d.churn_rate, 1)} change={d.churn_change} hint={`${d.hot_files_count} hot files`} />
          <Stat name="Duplication index" value={fmtNumber(d.duplication_index, 1)} change={d.duplication_change} />
          <Stat name="Refactoring rate" value={fmtNumber(d.refactoring_rate, 1)} hint={d.refactoring_interpretation} />
          <Stat
            name="Convention consistency"
            value={`${fmtNumber(d.convention_consistency, 1)} %`}
            change={d.convention_change}
            hint={`${d.deviations_count} deviations`}
          />
        </dl>
      ) : (
        <Empty>No dynamics yet: they compare two assessments.</Empty>
      )}
    </section>
  );
}

function Conventions({ data }: { data: HealthDashboard }) {
  const c = data.convention_consistency;
  return (
    <section class="card" aria-labelledby="conv-h">
      <h2 id="conv-h">Convention consistency</h2>
      {c && c.patterns.length > 0 ? (
        <>
          <p class="big">{fmtNumber(c.overall_consistency, 1)} %</p>
          <ul class="plain">
            {c.patterns.map((p) => (
              <li key={p.name}>
                <strong>{label(p.name)}</strong>: {fmtNumber(p.consistency, 1)} % “{p.dominant_value}” ({p.deviation_count} of {p.total_count} deviate)
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Empty>No convention measured yet.</Empty>
      )}
    </section>
  );
}

function TestQuality({ data }: { data: HealthDashboard }) {
  const t = data.test_quality;
  return (
    <section class="card" aria-labelledby="tq-h">
      <h2 id="tq-h">Test quality</h2>
      {t ? (
        <dl class="stats">
          <Stat name="Structural coverage" value={`${fmtNumber(t.structural_coverage, 1)} %`} change={t.coverage_change} />
          <Stat name="Assertion density" value={fmtNumber(t.assertion_density, 2)} />
          <Stat name="Test code ratio" value={fmtNumber(t.test_code_ratio, 2)} />
          <Stat name="Mock usage" value={`${fmtNumber(t.mock_usage_pct, 1)} %`} />
        </dl>
      ) : (
        <Empty>No test measurements yet.</Empty>
      )}
    </section>
  );
}

function DriftAlerts({ data, projectId, onChanged }: { data: HealthDashboard; projectId: string; onChanged: () => void }) {
  const action = useAction();
  const active = data.drift_alerts.filter((alert) => !alert.dismissed);
  return (
    <section class="card wide" aria-labelledby="drift-h">
      <h2 id="drift-h">Drift alerts</h2>
      {active.length === 0 ? (
        <Empty>No active drift alert: scores did not move significantly between the last assessments.</Empty>
      ) : (
        <ul class="plain">
          {active.map((alert) => (
            <li key={alert.id} class="alert-item">
              <div>
                <Badge tone={alert.change < 0 ? 'high' : 'low'}>{alert.drift_type}</Badge> <strong>{label(alert.category)}</strong>: {alert.message}{' '}
                <span class="muted">({fmtDate(alert.detected_at)})</span>
                {alert.affected_files.length > 0 ? <p class="muted small">{alert.affected_files.slice(0, 5).join(', ')}</p> : null}
              </div>
              <button
                type="button"
                disabled={action.busy}
                onClick={async () => {
                  if (await action.run(() => api(`/projects/${projectId}/health/drift-alerts/${alert.id}/dismiss`, { method: 'POST' }))) onChanged();
                }}
              >
                Dismiss<span class="sr-only"> alert about {label(alert.category)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}
