// Repositories: the linked ones, adding a public (or, embedded, a local file://) repository,
// linking one from the code-host App installations, unlinking, and onboarding progress live (SSE).
import { useEffect, useState } from 'preact/hooks';
import { api, readEvents } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import type { Repository } from '../types.js';
import { Badge, Empty, ErrorNote, Field, Load, fmtDate } from '../ui.js';

interface ProgressEvent {
  seq: number;
  type: string;
  step?: string;
  percent: number;
  message?: string;
}

function Onboarding({ sessionId, onDone }: { sessionId: string; onDone: () => void }) {
  const [events, setEvents] = useState<ProgressEvent[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    readEvents(`/onboarding/${sessionId}/events`, (event) => setEvents((list) => [...list, JSON.parse(event.data) as ProgressEvent]), controller.signal).then(
      onDone,
      (failure: Error) => {
        if (failure.name !== 'AbortError') setError(failure.message);
      },
    );
    return () => controller.abort();
  }, [sessionId]);
  const last = events.at(-1);
  const finished = last?.type === 'completed' || last?.type === 'failed';
  return (
    <section class="card" aria-labelledby="onb-h">
      <h2 id="onb-h">Onboarding</h2>
      <progress max={100} value={last?.percent ?? 0} aria-label="Onboarding progress" />
      <p role="status" aria-live="polite">
        {last
          ? finished
            ? last.type === 'completed'
              ? 'Onboarding completed.'
              : `Onboarding failed: ${last.message ?? 'see the server log'}`
            : `${last.percent} %: ${last.message ?? last.step ?? last.type}`
          : 'Waiting for the first step…'}
      </p>
      <ol class="steps">
        {events
          .filter((e) => e.type.startsWith('step_'))
          .map((e) => (
            <li key={e.seq}>
              <Badge tone={e.type === 'step_failed' ? 'critical' : e.type === 'step_finished' ? 'low' : 'info'}>{e.type.replace('step_', '')}</Badge> {e.step}
              {e.message ? <span class="muted"> — {e.message}</span> : null}
            </li>
          ))}
      </ol>
      <ErrorNote error={error} />
    </section>
  );
}

export function RepositoriesPage({ projectId }: { projectId: string }) {
  const repos = useApi<Repository[]>(`/projects/${projectId}/repos`);
  const [available, setAvailable] = useState<Repository[]>();
  const [url, setUrl] = useState('');
  const [skip, setSkip] = useState(false);
  const [session, setSession] = useState<string>();
  const add = useAction();
  const link = useAction();
  const unlink = useAction();
  const loadAvailable = () =>
    link.run(async () => {
      await api('/vcs/installations/sync', { method: 'POST', body: {} });
      setAvailable(await api<Repository[]>(`/projects/${projectId}/repos/available`));
    });
  return (
    <>
      {session ? <Onboarding key={session} sessionId={session} onDone={repos.reload} /> : null}
      <section class="card" aria-labelledby="linked-h">
        <h2 id="linked-h">Linked repositories</h2>
        <Load state={repos} label="Loading repositories…">
          {(list) =>
            list.length === 0 ? (
              <Empty>No repository yet. Add one below: onboarding clones it, detects its analyzers and runs the first assessment.</Empty>
            ) : (
              <ul class="plain">
                {list.map((repo) => (
                  <li key={repo.id} class="repo">
                    <div>
                      <strong>{repo.full_name}</strong> {repo.private ? <Badge tone="info">private</Badge> : null}
                      <p class="muted small">
                        {repo.url} · {repo.default_branch} · linked {fmtDate(repo.created_at)}
                        {repo.analyzers.length > 0 ? ` · analyzers: ${repo.analyzers.map((a) => `${a.language} (${a.path})`).join(', ')}` : ''}
                      </p>
                    </div>
                    <button
                      type="button"
                      disabled={unlink.busy}
                      onClick={async () => {
                        if (!confirm(`Unlink ${repo.full_name}? Its analysis data is kept.`)) return;
                        if (await unlink.run(() => api(`/projects/${projectId}/repos/${repo.id}`, { method: 'DELETE' }))) repos.reload();
                      }}
                    >
                      Unlink<span class="sr-only"> {repo.full_name}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </Load>
        <ErrorNote error={unlink.error} />
      </section>
      <section class="card" aria-labelledby="add-h">
        <h2 id="add-h">Add a public repository</h2>
        <form
          class="grid-form"
          onSubmit={async (e) => {
            e.preventDefault();
            let result: { onboarding_session_id: string } | undefined;
            if (
              await add.run(
                async () =>
                  (result = await api(`/projects/${projectId}/repos/add-public`, { method: 'POST', body: { url: url.trim(), skip_onboarding: skip } })),
              )
            ) {
              setUrl('');
              setSession(result!.onboarding_session_id);
              repos.reload();
            }
          }}
        >
          <Field label="Repository URL" hint="https://github.com/owner/name — the embedded server also takes a local file:///path/to/repo">
            <input name="repo-url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
          </Field>
          <label class="check">
            <input type="checkbox" checked={skip} onChange={(e) => setSkip((e.target as HTMLInputElement).checked)} /> Skip onboarding
          </label>
          <div>
            <button type="submit" class="primary" disabled={add.busy}>
              {add.busy ? 'Adding…' : 'Add repository'}
            </button>
          </div>
        </form>
        <ErrorNote error={add.error} />
      </section>
      <section class="card" aria-labelledby="inst-h">
        <h2 id="inst-h">From the code-host App installations</h2>
        <button type="button" onClick={loadAvailable} disabled={link.busy}>
          {link.busy ? 'Syncing…' : 'Sync installations and list repositories'}
        </button>
        <ErrorNote error={link.error} />
        {available === undefined ? null : available.length === 0 ? (
          <Empty>No repository of your installations is waiting to be linked.</Empty>
        ) : (
          <ul class="plain">
            {available.map((repo) => (
              <li key={repo.id} class="repo">
                <span>{repo.full_name}</span>
                <button
                  type="button"
                  disabled={link.busy}
                  onClick={async () => {
                    let result: { onboarding_session_id: string } | undefined;
                    if (
                      await link.run(async () => (result = await api(`/projects/${projectId}/repos`, { method: 'POST', body: { repository_id: repo.id } })))
                    ) {
                      setAvailable(available.filter((r) => r.id !== repo.id));
                      setSession(result!.onboarding_session_id);
                      repos.reload();
                    }
                  }}
                >
                  Link<span class="sr-only"> {repo.full_name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
