// Members and invitations: who is in the project, their roles, inviting by email, removing.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useAction, useApi } from '../hooks.js';
import { navigate } from '../router.js';
import type { Member, Project } from '../types.js';
import { Empty, ErrorNote, Field, Load, fmtDate } from '../ui.js';

interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expires_at: string;
}

export function MembersPage({ project }: { project: Project }) {
  const members = useApi<Member[]>(`/projects/${project.id}/members`);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [invited, setInvited] = useState<Invitation[]>([]);
  const invite = useAction();
  const change = useAction();
  const owner = project.user_role === 'owner';
  return (
    <>
      <section class="card" aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        <Load state={members} label="Loading members…">
          {(list) =>
            list.length === 0 ? (
              <Empty>No member.</Empty>
            ) : (
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Role</th>
                      <th scope="col">Since</th>
                      <th scope="col">
                        <span class="sr-only">Remove</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((member) => (
                      <tr key={member.id}>
                        <th scope="row">{member.email ?? <code>{member.user_id}</code>}</th>
                        <td>
                          <select
                            aria-label={`Role of ${member.email ?? member.user_id}`}
                            value={member.role}
                            disabled={!owner || change.busy}
                            onChange={async (e) => {
                              const next = (e.target as HTMLSelectElement).value;
                              await change.run(() => api(`/projects/${project.id}/members/${member.user_id}`, { method: 'PATCH', body: { role: next } }));
                              members.reload();
                            }}
                          >
                            <option value="owner">Owner</option>
                            <option value="member">Member</option>
                          </select>
                        </td>
                        <td>{fmtDate(member.created_at)}</td>
                        <td>
                          <button
                            type="button"
                            disabled={change.busy}
                            onClick={async () => {
                              if (!confirm('Remove this member from the project?')) return;
                              if (await change.run(() => api(`/projects/${project.id}/members/${member.user_id}`, { method: 'DELETE' }))) members.reload();
                            }}
                          >
                            Remove<span class="sr-only"> {member.email ?? member.user_id}</span>
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
        {!owner ? <p class="muted small">Only an owner can change roles.</p> : null}
        <ErrorNote error={change.error} />
      </section>
      <section class="card" aria-labelledby="invite-h">
        <h2 id="invite-h">Invite someone</h2>
        <form
          class="grid-form"
          onSubmit={async (e) => {
            e.preventDefault();
            let created: Invitation | undefined;
            if (
              await invite.run(
                async () => (created = await api<Invitation>(`/projects/${project.id}/invitations`, { method: 'POST', body: { email: email.trim(), role } })),
              )
            ) {
              setInvited([created!, ...invited]);
              setEmail('');
            }
          }}
        >
          <Field label="Email">
            <input type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="Role">
            <select value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </Field>
          <div>
            <button type="submit" class="primary" disabled={invite.busy}>
              Invite
            </button>
          </div>
        </form>
        <ErrorNote error={invite.error} />
        {invited.length > 0 ? (
          <ul class="plain" aria-label="Invitations sent now">
            {invited.map((inv) => (
              <li key={inv.id}>
                {inv.email} as {inv.role}: {inv.status}, expires {fmtDate(inv.expires_at)}. Send them this link to accept (signed in with that email):{' '}
                <code class="break">{`${location.origin}/invitations/${inv.id}`}</code>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}

/** `/invitations/:id`: the invitee, signed in, accepts and lands in the project. */
export function AcceptInvitation({ invitationId }: { invitationId: string }) {
  const action = useAction();
  return (
    <main id="main" class="narrow" tabIndex={-1}>
      <h1>Join a project</h1>
      <p>You were invited to a CodeHealth project. Accepting adds you to it with the role the invitation names.</p>
      <button
        type="button"
        class="primary"
        disabled={action.busy}
        onClick={async () => {
          let accepted: { project_id: string } | undefined;
          if (await action.run(async () => (accepted = await api(`/invitations/${invitationId}/accept`, { method: 'POST' }))))
            navigate(`/projects/${accepted!.project_id}/health`);
        }}
      >
        Accept the invitation
      </button>
      <ErrorNote error={action.error} />
    </main>
  );
}
