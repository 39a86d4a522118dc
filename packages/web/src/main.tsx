// The dashboard's shell: configuration, sign-in gate, navigation and the route table.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { currentToken, forgetToken, loadConfig, onUnauthorized } from './api.js';
import { useApi } from './hooks.js';
import { match, navigate, safeNext, useLocation } from './router.js';
import type { Project } from './types.js';
import { Load } from './ui.js';
import { HealthPage } from './pages/health.js';
import { IssuesPage } from './pages/issues.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { PullRequestsPage, PullRequestPage } from './pages/pull-requests.js';
import { RepositoriesPage } from './pages/repositories.js';
import { ArchitecturePage } from './pages/architecture.js';
import { AcceptInvitation, MembersPage } from './pages/members.js';
import { ProjectList, ProjectSettings } from './pages/projects.js';
import { LocalSignIn, OidcCallback, SignIn } from './pages/sign-in.js';
import './styles.css';

const PROJECT_TABS = [
  ['health', 'Health'],
  ['issues', 'Issues'],
  ['pulls', 'Pull requests'],
  ['repos', 'Repositories'],
  ['architecture', 'Architecture'],
  ['members', 'Members'],
  ['settings', 'Settings'],
] as const;

function ProjectShell({ projectId, tab, rest }: { projectId: string; tab: string; rest: string[] }) {
  const project = useApi<Project>(`/projects/${projectId}`);
  const title = PROJECT_TABS.find(([key]) => key === tab)?.[1] ?? 'Project';
  useEffect(() => {
    if (project.data) document.title = `${title} · ${project.data.name} · CodeHealth`;
  }, [project.data, title]);
  return (
    <main id="main" tabIndex={-1}>
      <Load state={project} label="Loading the project…">
        {(p) => (
          <>
            <p class="crumbs">
              <a href="/projects">Projects</a> / <span>{p.name}</span>
            </p>
            <h1>
              {title} <span class="muted small">{p.name}</span>
            </h1>
            <nav class="tabs" aria-label="Project sections">
              {PROJECT_TABS.map(([key, text]) => (
                <a key={key} href={`/projects/${p.id}/${key}`} aria-current={key === tab ? 'page' : undefined}>
                  {text}
                </a>
              ))}
            </nav>
            {tab === 'health' ? <HealthPage projectId={p.id} /> : null}
            {tab === 'issues' ? <IssuesPage projectId={p.id} /> : null}
            {tab === 'pulls' && rest.length === 0 ? <PullRequestsPage projectId={p.id} /> : null}
            {tab === 'pulls' && rest.length === 1 ? <PullRequestPage projectId={p.id} analysisId={rest[0]!} /> : null}
            {tab === 'repos' ? <RepositoriesPage projectId={p.id} /> : null}
            {tab === 'architecture' ? <ArchitecturePage projectId={p.id} /> : null}
            {tab === 'members' ? <MembersPage project={p} /> : null}
            {tab === 'settings' ? <ProjectSettings project={p} onChanged={project.reload} /> : null}
            {!PROJECT_TABS.some(([key]) => key === tab) ? <NotFound /> : null}
          </>
        )}
      </Load>
    </main>
  );
}

function NotFound() {
  return (
    <section>
      <h2>Page not found</h2>
      <p>
        Nothing lives at this address. <a href="/projects">Go to the projects</a>.
      </p>
    </section>
  );
}

function Header({ signedIn }: { signedIn: boolean }) {
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <a href="/projects" class="brand">
        CodeHealth
      </a>
      {signedIn ? (
        <nav aria-label="Account">
          <a href="/projects">Projects</a>
          <a href="/settings/api-keys">API keys</a>
          <button
            type="button"
            class="link"
            onClick={() => {
              forgetToken();
              navigate('/sign-in');
            }}
          >
            Sign out
          </button>
        </nav>
      ) : null}
    </header>
  );
}

function App() {
  const { path, query } = useLocation();
  const [, setTick] = useState(0);
  useEffect(
    () =>
      onUnauthorized(() => {
        forgetToken();
        navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
      }),
    [],
  );
  useEffect(() => setTick((n) => n + 1), [path]);
  const firstRender = useRef(true);
  useEffect(() => {
    if (!path.startsWith('/projects/')) document.title = 'CodeHealth';
    // After an in-app navigation, focus moves to the new content (as a page load would reset it);
    // on the first load it stays at the top, where the skip link is.
    if (firstRender.current) firstRender.current = false;
    else document.getElementById('main')?.focus({ preventScroll: false });
  }, [path]);

  const publicRoute = path === '/sign-in' || path === '/sign-in/local' || path === '/auth/callback';
  const signedIn = currentToken() !== null;
  if (!publicRoute && !signedIn) {
    queueMicrotask(() => navigate(`/sign-in?next=${encodeURIComponent(path + location.search)}`, { replace: true }));
    return null;
  }
  let page;
  let params: Record<string, string> | null;
  if (path === '/' || path === '/projects') page = <ProjectList />;
  else if (path === '/sign-in') page = <SignIn next={safeNext(query.get('next'))} />;
  else if (path === '/sign-in/local') page = <LocalSignIn />;
  else if (path === '/auth/callback') page = <OidcCallback query={query} />;
  else if (path === '/settings/api-keys') page = <ApiKeysPage />;
  else if ((params = match('/invitations/:id', path))) page = <AcceptInvitation invitationId={params.id!} />;
  else if ((params = match('/projects/:id', path))) page = <ProjectShell projectId={params.id!} tab="health" rest={[]} />;
  else if (path.startsWith('/projects/')) {
    const [, , id, tab, ...rest] = path.split('/');
    page = <ProjectShell projectId={decodeURIComponent(id!)} tab={tab ?? 'health'} rest={rest.filter(Boolean)} />;
  } else
    page = (
      <main id="main" tabIndex={-1}>
        <NotFound />
      </main>
    );
  return (
    <>
      <Header signedIn={signedIn && !publicRoute} />
      {page}
    </>
  );
}

loadConfig().then(() => render(<App />, document.getElementById('app')!));
