// Architecture: the computed overview, reviews (trigger and read), conventions to accept or reject,
// and architecture decision records (create, edit, move status).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { Badge, Empty, ErrorNote, Field, Load, fmtDate, fmtNumber, label } from '../ui.js';

interface Overview {
  generated_at: string;
  summary: string;
  repositories: {
    full_name: string | null;
    files: number;
    lines_of_code: number;
    components: { path: string; lines_of_code: number; afferent_coupling: number; efferent_coupling: number; instability: number | null }[];
    import_cycles: { total: number; runtime: number };
  }[];
}
interface ReviewSummary {
  id: string;
  status: string;
  summary: string;
  finding_count: number;
  error: string | null;
  created_at: string;
}
interface Convention {
  id: string;
  name: string;
  description: string;
  dominant_value: string;
  consistency: number;
  total_count: number;
  deviation_count: number;
  status: 'detected' | 'accepted' | 'rejected';
}
interface Adr {
  id: string;
  number: number;
  title: string;
  status: string;
  context: string;
  decision: string;
  consequences: string;
  updated_at: string;
}

export function ArchitecturePage({ projectId }: { projectId: string }) {
  const base = `/projects/${projectId}/architecture`;
  const overview = useApi<Overview>(`${base}/overview`);
  return (
    <>
      <section class="card" aria-labelledby="ov-h">
        <h2 id="ov-h">Overview</h2>
        {overview.error && (overview.error as { status?: number }).status === 404 ? (
          <Empty>No overview yet: onboarding a repository or completing a review computes it.</Empty>
        ) : (
          <Load state={overview} label="Loading the overview…">
            {(o) => (
              <>
                <p>{o.summary}</p>
                <p class="muted small">Computed {fmtDate(o.generated_at)}</p>
                {o.repositories.map((repo) => (
                  <div key={repo.full_name ?? 'repo'} class="table-wrap" tabIndex={0}>
                    <table>
                      <caption>
                        {repo.full_name ?? 'Repository'}: {fmtNumber(repo.lines_of_code)} lines in {repo.files} files, {repo.import_cycles.total} import cycles
                      </caption>
                      <thead>
                        <tr>
                          <th scope="col">Component</th>
                          <th scope="col">Lines</th>
                          <th scope="col">Ca</th>
                          <th scope="col">Ce</th>
                          <th scope="col">Instability</th>
                        </tr>
                      </thead>
                      <tbody>
                        {repo.components.map((c) => (
                          <tr key={c.path}>
                            <th scope="row">{c.path}</th>
                            <td>{fmtNumber(c.lines_of_code)}</td>
                            <td>{c.afferent_coupling}</td>
                            <td>{c.efferent_coupling}</td>
                            <td>{fmtNumber(c.instability, 2)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ))}
              </>
            )}
          </Load>
        )}
      </section>
      <Reviews base={base} />
      <Conventions base={base} />
      <Adrs base={base} />
    </>
  );
}

function Reviews({ base }: { base: string }) {
  const reviews = useApi<{ items: ReviewSummary[] }>(`${base}/reviews?limit=10`);
  const trigger = useAction();
  const busy = reviews.data?.items.some((r) => r.status === 'pending' || r.status === 'running') ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(reviews.reload, 1500);
    return () => clearTimeout(timer);
  }, [busy, reviews.data]);
  return (
    <section class="card" aria-labelledby="rev-h">
      <h2 id="rev-h">Reviews</h2>
      <button
        type="button"
        disabled={trigger.busy || busy}
        onClick={async () => (await trigger.run(() => api(`${base}/reviews/trigger`, { method: 'POST' }))) && reviews.reload()}
      >
        {busy ? 'Reviewing…' : 'Run a review'}
      </button>
      <ErrorNote error={trigger.error} />
      <Load state={reviews} label="Loading reviews…">
        {({ items }) =>
          items.length === 0 ? (
            <Empty>No review yet.</Empty>
          ) : (
            <ul class="plain">
              {items.map((r) => (
                <li key={r.id}>
                  <Badge tone={r.status === 'failed' ? 'critical' : 'info'}>{r.status}</Badge> {fmtDate(r.created_at)}: {r.finding_count} findings.{' '}
                  {r.summary || r.error}
                </li>
              ))}
            </ul>
          )
        }
      </Load>
    </section>
  );
}

function Conventions({ base }: { base: string }) {
  const conventions = useApi<Convention[]>(`${base}/conventions`);
  const action = useAction();
  const [queued, setQueued] = useState(false);
  const setStatus = async (id: string, status: Convention['status']) => {
    if (await action.run(() => api(`${base}/conventions/${id}`, { method: 'PATCH', body: { status } }))) conventions.reload();
  };
  return (
    <section class="card" aria-labelledby="convs-h">
      <h2 id="convs-h">Conventions</h2>
      <div class="toolbar">
        <button
          type="button"
          disabled={action.busy}
          onClick={async () => setQueued(await action.run(() => api(`${base}/conventions/detect`, { method: 'POST' })))}
        >
          Detect conventions again
        </button>
        {queued ? (
          <span role="status">
            Detection queued.{' '}
            <button type="button" class="link" onClick={conventions.reload}>
              Show the new results
            </button>
          </span>
        ) : null}
      </div>
      <ErrorNote error={action.error} />
      <Load state={conventions} label="Loading conventions…">
        {(list) =>
          list.length === 0 ? (
            <Empty>No convention detected yet.</Empty>
          ) : (
            <ul class="plain">
              {list.map((c) => (
                <li key={c.id} class="repo">
                  <div>
                    <strong>{label(c.name)}</strong>: “{c.dominant_value}” in {fmtNumber(c.consistency, 1)} % ({c.deviation_count} of {c.total_count} deviate){' '}
                    <Badge tone={c.status === 'accepted' ? 'low' : c.status === 'rejected' ? 'high' : 'info'}>{c.status}</Badge>
                    <p class="muted small">{c.description}</p>
                  </div>
                  <div class="buttons">
                    <button type="button" disabled={action.busy || c.status === 'accepted'} onClick={() => setStatus(c.id, 'accepted')}>
                      Accept<span class="sr-only"> {c.name}</span>
                    </button>
                    <button type="button" disabled={action.busy || c.status === 'rejected'} onClick={() => setStatus(c.id, 'rejected')}>
                      Reject<span class="sr-only"> {c.name}</span>
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
    </section>
  );
}

const ADR_STATUSES = ['proposed', 'accepted', 'rejected', 'deprecated', 'superseded'];

function AdrForm({ initial, onSave, submitText }: { initial?: Adr; onSave: (body: Record<string, string>) => Promise<boolean>; submitText: string }) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [context, setContext] = useState(initial?.context ?? '');
  const [decision, setDecision] = useState(initial?.decision ?? '');
  const [consequences, setConsequences] = useState(initial?.consequences ?? '');
  const [status, setStatus] = useState(initial?.status ?? 'proposed');
  return (
    <form
      class="grid-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if ((await onSave({ title: title.trim(), context, decision, consequences, status })) && !initial) {
          setTitle('');
          setContext('');
          setDecision('');
          setConsequences('');
        }
      }}
    >
      <Field label="Title">
        <input required value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
      </Field>
      <Field label="Status">
        <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
          {ADR_STATUSES.filter((s) => s !== 'superseded').map((s) => (
            <option key={s} value={s}>
              {label(s)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Context">
        <textarea rows={3} value={context} onInput={(e) => setContext((e.target as HTMLTextAreaElement).value)} />
      </Field>
      <Field label="Decision">
        <textarea rows={3} value={decision} onInput={(e) => setDecision((e.target as HTMLTextAreaElement).value)} />
      </Field>
      <Field label="Consequences">
        <textarea rows={3} value={consequences} onInput={(e) => setConsequences((e.target as HTMLTextAreaElement).value)} />
      </Field>
      <div>
        <button type="submit" class="primary">
          {submitText}
        </button>
      </div>
    </form>
  );
}

function Adrs({ base }: { base: string }) {
  const adrs = useApi<{ items: Adr[] }>(`${base}/adrs?limit=100`);
  const [editing, setEditing] = useState<string>();
  const action = useAction();
  return (
    <section class="card" aria-labelledby="adr-h">
      <h2 id="adr-h">Decision records</h2>
      <Load state={adrs} label="Loading decision records…">
        {({ items }) =>
          items.length === 0 ? (
            <Empty>No decision recorded yet.</Empty>
          ) : (
            <ul class="plain">
              {items.map((adr) => (
                <li key={adr.id}>
                  <details open={editing === adr.id}>
                    <summary>
                      ADR {adr.number}: {adr.title} <Badge tone="info">{adr.status}</Badge>
                    </summary>
                    {editing === adr.id ? (
                      <AdrForm
                        initial={adr}
                        submitText="Save"
                        onSave={async (body) => {
                          const ok = await action.run(() => api(`${base}/adrs/${adr.id}`, { method: 'PATCH', body }));
                          if (ok) {
                            setEditing(undefined);
                            adrs.reload();
                          }
                          return ok;
                        }}
                      />
                    ) : (
                      <>
                        <h3>Context</h3>
                        <p class="prewrap">{adr.context || '—'}</p>
                        <h3>Decision</h3>
                        <p class="prewrap">{adr.decision || '—'}</p>
                        <h3>Consequences</h3>
                        <p class="prewrap">{adr.consequences || '—'}</p>
                        <button type="button" onClick={() => setEditing(adr.id)}>
                          Edit<span class="sr-only"> ADR {adr.number}</span>
                        </button>
                      </>
                    )}
                  </details>
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <ErrorNote error={action.error} />
      <h3>Record a decision</h3>
      <AdrForm
        submitText="Create"
        onSave={async (body) => {
          const ok = await action.run(() => api(`${base}/adrs`, { method: 'POST', body }));
          if (ok) adrs.reload();
          return ok;
        }}
      />
    </section>
  );
}
