// Issues: filters and sort in the URL, pagination, each issue's anchor snippet with why and how to
// fix it, dismiss and restore; the project's dismiss rules.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { navigate, useLocation, withQuery } from '../router.js';
import type { DismissRule, Issue } from '../types.js';
import { Badge, Empty, ErrorNote, Field, Load, fmtDate, label } from '../ui.js';

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
const CATEGORIES = ['security', 'runtime', 'testing', 'code_smell', 'dead_code', 'duplication', 'consistency', 'compliance'];
const SOURCES = ['static_analyzer', 'llm_agent', 'graph_rule', 'convention', 'architecture'];
const SORTS = ['severity', 'file_path', 'category', 'created_at'];
const PAGE = 25;

function Select({ name, text, value, options, onChange }: { name: string; text: string; value: string; options: string[]; onChange: (value: string) => void }) {
  return (
    <Field label={text}>
      <select name={name} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {label(o)}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function IssuesPage({ projectId }: { projectId: string }) {
  const { path, query } = useLocation();
  const severity = query.get('severity') ?? '';
  const category = query.get('category') ?? '';
  const source = query.get('source') ?? '';
  const dismissed = query.get('dismissed') === 'true';
  const sort = query.get('sort') ?? 'severity';
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const params = new URLSearchParams({ sort_by: sort, limit: String(PAGE), offset: String(offset), is_dismissed: String(dismissed) });
  if (severity) params.set('severity', severity);
  if (category) params.set('category', category);
  if (source) params.set('source', source);
  const context = query.get('context') ?? '';
  if (context) params.set('context_id', context);
  const issues = useApi<{ issues: Issue[]; total: number }>(`/projects/${projectId}/analysis/issues?${params}`);
  const rules = useApi<DismissRule[]>(`/projects/${projectId}/analysis/dismiss-rules`);
  const set = (changes: Record<string, string | number | undefined>) => navigate(path + withQuery(query, { offset: undefined, ...changes }));
  const reloadAll = () => {
    issues.reload();
    rules.reload();
  };
  return (
    <>
      <form class="filters" aria-label="Filter issues" onSubmit={(e) => e.preventDefault()}>
        <Select name="severity" text="Severity" value={severity} options={SEVERITIES} onChange={(v) => set({ severity: v })} />
        <Select name="category" text="Category" value={category} options={CATEGORIES} onChange={(v) => set({ category: v })} />
        <Select name="source" text="Source" value={source} options={SOURCES} onChange={(v) => set({ source: v })} />
        <Field label="Sort by">
          <select name="sort" value={sort} onChange={(e) => set({ sort: (e.target as HTMLSelectElement).value })}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Show">
          <select
            name="dismissed"
            value={String(dismissed)}
            onChange={(e) => set({ dismissed: (e.target as HTMLSelectElement).value === 'true' ? 'true' : undefined })}
          >
            <option value="false">Active issues</option>
            <option value="true">Dismissed issues</option>
          </select>
        </Field>
      </form>
      {context ? (
        <p>
          Showing the issues of one analysis run. <a href={path + withQuery(query, { context: undefined, offset: undefined })}>Show all issues</a>
        </p>
      ) : null}
      <Load state={issues} label="Loading issues…">
        {(data) => (
          <section aria-labelledby="issues-h">
            <h2 id="issues-h" class="sr-only">
              Issues
            </h2>
            <p role="status" class="muted">
              {data.total === 0 ? '' : `${offset + 1}–${Math.min(offset + PAGE, data.total)} of ${data.total} ${dismissed ? 'dismissed' : 'active'} issues`}
            </p>
            {data.issues.length === 0 ? (
              <Empty>{dismissed ? 'No dismissed issue matches these filters.' : 'No active issue matches these filters.'}</Empty>
            ) : (
              <ul class="issues">
                {data.issues.map((issue) => (
                  <IssueItem key={issue.id} issue={issue} projectId={projectId} onChanged={reloadAll} />
                ))}
              </ul>
            )}
            <nav class="pager" aria-label="Pages of issues">
              <button type="button" disabled={offset === 0} onClick={() => set({ offset: Math.max(0, offset - PAGE) || undefined })}>
                Previous page
              </button>
              <button type="button" disabled={offset + PAGE >= data.total} onClick={() => set({ offset: offset + PAGE })}>
                Next page
              </button>
            </nav>
          </section>
        )}
      </Load>
      <DismissRules projectId={projectId} rules={rules} onChanged={reloadAll} />
    </>
  );
}

function IssueItem({ issue, projectId, onChanged }: { issue: Issue; projectId: string; onChanged: () => void }) {
  const action = useAction();
  const [reason, setReason] = useState('');
  const [kind, setKind] = useState('dismiss');
  const base = `/projects/${projectId}/analysis/issues/${issue.id}`;
  return (
    <li class="issue card">
      <details>
        <summary>
          <Badge tone={issue.severity}>{issue.severity}</Badge> <strong>{issue.title}</strong>{' '}
          <span class="muted">
            {issue.file_path}:{issue.anchor.line_start}
          </span>
          {issue.is_new ? <Badge tone="new">new</Badge> : null}
        </summary>
        <div class="issue-body">
          <p class="muted small">
            {label(issue.category)} · {issue.rule_id} · {issue.analyzer_name} · confidence {issue.confidence} · found {fmtDate(issue.created_at)}
          </p>
          {issue.description ? <p>{issue.description}</p> : null}
          {issue.anchor.code_snippet ? (
            <figure>
              <figcaption class="muted small">
                {issue.file_path}, lines {issue.anchor.line_start}–{issue.anchor.line_end}
              </figcaption>
              <pre class="snippet" tabIndex={0}>
                <code>{issue.anchor.code_snippet}</code>
              </pre>
            </figure>
          ) : null}
          <h3>Why it matters</h3>
          <p>{issue.why_it_matters || '—'}</p>
          <h3>How to fix it</h3>
          <p>{issue.suggested_action || '—'}</p>
          {issue.is_dismissed ? (
            <button
              type="button"
              disabled={action.busy}
              onClick={async () => (await action.run(() => api(`${base}/restore`, { method: 'POST' }))) && onChanged()}
            >
              Restore
            </button>
          ) : (
            <form
              class="inline-form"
              onSubmit={async (e) => {
                e.preventDefault();
                if (
                  await action.run(() =>
                    api(`${base}/dismiss`, { method: 'POST', body: { action: kind, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
                  )
                )
                  onChanged();
              }}
            >
              <Field label="Dismiss as">
                <select value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value)}>
                  <option value="dismiss">Dismissed</option>
                  <option value="false_positive">False positive</option>
                  <option value="wont_fix">Won’t fix</option>
                </select>
              </Field>
              <Field label="Reason (optional)">
                <input value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
              </Field>
              <button type="submit" disabled={action.busy}>
                Dismiss
              </button>
            </form>
          )}
          <ErrorNote error={action.error} />
        </div>
      </details>
    </li>
  );
}

function DismissRules({ projectId, rules, onChanged }: { projectId: string; rules: ReturnType<typeof useApi<DismissRule[]>>; onChanged: () => void }) {
  const [pattern, setPattern] = useState('');
  const [scope, setScope] = useState('project');
  const [filePath, setFilePath] = useState('');
  const [reason, setReason] = useState('');
  const create = useAction();
  const remove = useAction();
  const base = `/projects/${projectId}/analysis/dismiss-rules`;
  return (
    <section class="card" aria-labelledby="rules-h">
      <h2 id="rules-h">Dismiss rules</h2>
      <Load state={rules} label="Loading dismiss rules…">
        {(list) =>
          list.length === 0 ? (
            <Empty>No dismiss rule. Dismissing an issue creates one; you can also add one below.</Empty>
          ) : (
            <div class="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Pattern</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Action</th>
                    <th scope="col">Matches</th>
                    <th scope="col">Reason</th>
                    <th scope="col">
                      <span class="sr-only">Delete</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((rule) => (
                    <tr key={rule.id}>
                      <td>
                        <code>{rule.rule_pattern}</code>
                        {rule.secondary_pattern ? <code> · {rule.secondary_pattern}</code> : null}
                      </td>
                      <td>
                        {rule.scope}
                        {rule.scope === 'file' ? `: ${rule.file_path}` : ''}
                      </td>
                      <td>{label(rule.action)}</td>
                      <td>{rule.match_count}</td>
                      <td>{rule.reason || '—'}</td>
                      <td>
                        <button
                          type="button"
                          disabled={remove.busy}
                          onClick={async () => (await remove.run(() => api(`${base}/${rule.id}`, { method: 'DELETE' }))) && onChanged()}
                        >
                          Delete<span class="sr-only"> rule {rule.rule_pattern}</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Load>
      <ErrorNote error={remove.error} />
      <form
        class="grid-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const body = {
            rule_pattern: pattern.trim(),
            scope,
            ...(scope === 'file' ? { file_path: filePath.trim() } : {}),
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          };
          if (await create.run(() => api(base, { method: 'POST', body }))) {
            setPattern('');
            onChanged();
          }
        }}
      >
        <h3>Add a rule</h3>
        <Field label="Rule pattern" hint="Matched against rule ids or titles, e.g. code-smell/deep-nesting">
          <input required value={pattern} onInput={(e) => setPattern((e.target as HTMLInputElement).value)} />
        </Field>
        <Field label="Scope">
          <select value={scope} onChange={(e) => setScope((e.target as HTMLSelectElement).value)}>
            <option value="project">This project</option>
            <option value="global">Global</option>
            <option value="file">One file or glob</option>
          </select>
        </Field>
        {scope === 'file' ? (
          <Field label="File path or glob">
            <input required value={filePath} onInput={(e) => setFilePath((e.target as HTMLInputElement).value)} />
          </Field>
        ) : null}
        <Field label="Reason (optional)">
          <input value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
        </Field>
        <div>
          <button type="submit" disabled={create.busy}>
            Add rule
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} />
    </section>
  );
}
