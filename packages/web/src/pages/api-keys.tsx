// API keys: list, create (the full key is shown once), revoke.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import type { ApiKey } from '../types.js';
import { Empty, ErrorNote, Field, Load, fmtDate } from '../ui.js';

export function ApiKeysPage() {
  const keys = useApi<{ keys: ApiKey[] }>('/api-keys');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<ApiKey>();
  const create = useAction();
  const revoke = useAction();
  return (
    <main id="main" tabIndex={-1}>
      <h1>API keys</h1>
      <p>
        A key acts as you: it reaches your projects with your roles. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <section class="card" aria-labelledby="new-key-h">
        <h2 id="new-key-h">Create a key</h2>
        <form
          class="grid-form"
          onSubmit={async (e) => {
            e.preventDefault();
            let result: ApiKey | undefined;
            if (await create.run(async () => (result = await api<ApiKey>('/api-keys', { method: 'POST', body: { name: name.trim(), description } })))) {
              setCreated(result);
              setName('');
              setDescription('');
              keys.reload();
            }
          }}
        >
          <Field label="Name">
            <input name="key-name" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="Description (optional)">
            <input name="key-description" value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
          </Field>
          <div>
            <button type="submit" class="primary" disabled={create.busy}>
              Create key
            </button>
          </div>
        </form>
        <ErrorNote error={create.error} />
        {created?.key ? (
          <div class="once" role="status">
            <p>
              <strong>Copy the key “{created.name}” now:</strong> it is shown this once and cannot be read again.
            </p>
            <label class="field">
              <span>New key</span>
              <input class="mono" readOnly value={created.key} onFocus={(e) => (e.target as HTMLInputElement).select()} />
            </label>
            <button type="button" onClick={() => navigator.clipboard?.writeText(created.key!)}>
              Copy to clipboard
            </button>{' '}
            <button type="button" onClick={() => setCreated(undefined)}>
              I have copied it
            </button>
          </div>
        ) : null}
      </section>
      <section class="card" aria-labelledby="keys-h">
        <h2 id="keys-h">Your keys</h2>
        <Load state={keys} label="Loading keys…">
          {({ keys: list }) =>
            list.length === 0 ? (
              <Empty>No key.</Empty>
            ) : (
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Starts with</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">
                        <span class="sr-only">Revoke</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((key) => (
                      <tr key={key.id}>
                        <th scope="row">
                          {key.name}
                          {key.description ? <small class="muted block">{key.description}</small> : null}
                        </th>
                        <td>
                          <code>{key.key_prefix}…</code>
                        </td>
                        <td>{fmtDate(key.created_at)}</td>
                        <td>{key.last_used_at ? fmtDate(key.last_used_at) : 'never'}</td>
                        <td>
                          <button
                            type="button"
                            class="danger"
                            disabled={revoke.busy}
                            onClick={async () => {
                              if (!confirm(`Revoke the key “${key.name}”? Programs using it will get 401.`)) return;
                              if (await revoke.run(() => api(`/api-keys/${key.id}`, { method: 'DELETE' }))) keys.reload();
                            }}
                          >
                            Revoke<span class="sr-only"> {key.name}</span>
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
        <ErrorNote error={revoke.error} />
      </section>
    </main>
  );
}
