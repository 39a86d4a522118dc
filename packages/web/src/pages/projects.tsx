// Projects: the list, creating one, and a project's settings (rename, describe, delete).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { navigate } from '../router.js';
import type { Project } from '../types.js';
import { Empty, ErrorNote, Field, Load, fmtDate } from '../ui.js';

const toKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

export function ProjectList() {
  const projects = useApi<Project[]>('/projects');
  return (
    <main id="main" tabIndex={-1}>
      <h1>Projects</h1>
      <Load state={projects} label="Loading projects…">
        {(list) =>
          list.length === 0 ? (
            <Empty>No project yet. Create the first one below, then add a repository to it.</Empty>
          ) : (
            <ul class="cards">
              {list.map((project) => (
                <li key={project.id} class="card">
                  <h2>
                    <a href={`/projects/${project.id}/health`}>{project.name}</a>
                  </h2>
                  <p class="muted">
                    {project.key} · {project.user_role} · created {fmtDate(project.created_at)}
                  </p>
                  {project.description ? <p>{project.description}</p> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Load>
      <CreateProject onCreated={(project) => navigate(`/projects/${project.id}/repos`)} />
    </main>
  );
}

function CreateProject({ onCreated }: { onCreated: (project: Project) => void }) {
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  const [description, setDescription] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    let created: Project | undefined;
    const ok = await action.run(async () => {
      created = await api<Project>('/projects', { method: 'POST', body: { name: name.trim(), key: key.trim(), description } });
    });
    if (ok && created) onCreated(created);
  };
  return (
    <section class="card" aria-labelledby="create-project">
      <h2 id="create-project">Create a project</h2>
      <form onSubmit={submit} class="grid-form">
        <Field label="Name">
          <input
            name="name"
            required
            value={name}
            onInput={(e) => {
              const value = (e.target as HTMLInputElement).value;
              setName(value);
              if (!keyEdited) setKey(toKey(value));
            }}
          />
        </Field>
        <Field label="Key" hint="URL-safe and unique, e.g. web-shop">
          <input
            name="key"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*"
            value={key}
            onInput={(e) => {
              setKeyEdited(true);
              setKey((e.target as HTMLInputElement).value);
            }}
          />
        </Field>
        <Field label="Description (optional)">
          <input name="description" value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
        </Field>
        <div>
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Creating…' : 'Create project'}
          </button>
        </div>
      </form>
      <ErrorNote error={action.error} />
    </section>
  );
}

export function ProjectSettings({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [settings, setSettings] = useState(JSON.stringify(project.settings ?? {}, null, 2));
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const remove = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const ok = await save.run(async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(settings || '{}');
      } catch (error) {
        throw new Error(`The settings are not valid JSON: ${(error as Error).message}`, { cause: error });
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('The settings must be a JSON object, e.g. {}.');
      await api(`/projects/${project.id}`, { method: 'PATCH', body: { name: name.trim(), description, settings: parsed } });
    });
    if (ok) {
      setSaved(true);
      onChanged();
    }
  };
  const destroy = async () => {
    if (!confirm(`Delete the project “${project.name}” and all its data? This cannot be undone.`)) return;
    if (await remove.run(() => api(`/projects/${project.id}`, { method: 'DELETE' }))) navigate('/projects');
  };
  return (
    <>
      <section class="card" aria-labelledby="settings-h">
        <h2 id="settings-h">Project settings</h2>
        <form onSubmit={submit} class="grid-form">
          <Field label="Name">
            <input required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="Key" hint="The key cannot change.">
            <input value={project.key} readOnly />
          </Field>
          <Field label="Description">
            <input value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="Settings (JSON object)" hint="Free-form project settings, stored as given.">
            <textarea rows={4} class="mono" value={settings} onInput={(e) => setSettings((e.target as HTMLTextAreaElement).value)} />
          </Field>
          <div>
            <button type="submit" class="primary" disabled={save.busy}>
              Save
            </button>
            {saved ? (
              <span role="status" class="muted">
                {' '}
                Saved.
              </span>
            ) : null}
          </div>
        </form>
        <ErrorNote error={save.error} />
      </section>
      <section class="card danger-zone" aria-labelledby="danger-h">
        <h2 id="danger-h">Delete the project</h2>
        <p>Only an owner can delete a project. Its assessments, issues and analyses go with it.</p>
        <button type="button" class="danger" disabled={project.user_role !== 'owner' || remove.busy} onClick={destroy}>
          Delete project
        </button>
        <ErrorNote error={remove.error} />
      </section>
    </>
  );
}
