// Sign-in: paste an API key once (kept in this browser), follow the embedded server's one-time
// link, or go through the identity provider (self-hosted).
import { useEffect, useState } from 'preact/hooks';
import { api, siteConfig, storeToken } from '../api.js';
import { finishOidcSignIn, startOidcSignIn } from '../oidc.js';
import { navigate } from '../router.js';
import { ErrorNote, Field, Loading } from '../ui.js';

export function SignIn({ next }: { next: string }) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const oidc = siteConfig().oidc;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const token = key.trim();
      if (!token) throw new Error('Paste an API key first.');
      await api('/projects', { token });
      storeToken(token, 'api-key', remember);
      navigate(next || '/projects', { replace: true });
    } catch (failure) {
      const message = (failure as Error & { status?: number }).message;
      setError((failure as { status?: number }).status === 401 ? 'The server does not accept this key (unknown or revoked).' : message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="narrow" tabIndex={-1}>
      <h1>Sign in to CodeHealth</h1>
      {oidc ? (
        <section class="card">
          <h2>With your organisation’s account</h2>
          <button type="button" class="primary" onClick={() => startOidcSignIn(next).catch((failure: Error) => setError(failure.message))}>
            Sign in with the identity provider
          </button>
        </section>
      ) : null}
      <section class="card">
        <h2>With an API key</h2>
        <form onSubmit={submit}>
          <Field label="API key" hint="Create one with: npx codehealth keys create --email you@example.com">
            <input type="password" name="api-key" autoComplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} required />
          </Field>
          <label class="check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember((e.target as HTMLInputElement).checked)} /> Remember on this device
          </label>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
        </form>
      </section>
      <ErrorNote error={error} />
    </main>
  );
}

/** `/sign-in/local#code=…`: the one-time link `npm start` prints for the embedded owner. */
export function LocalSignIn() {
  const [error, setError] = useState<string>();
  useEffect(() => {
    const code = new URLSearchParams(location.hash.slice(1)).get('code');
    history.replaceState(null, '', '/sign-in/local'); // the code is spent: keep it out of history
    if (!code) {
      setError('This sign-in link has no code. Copy the whole link that npm start printed.');
      return;
    }
    (async () => {
      const response = await fetch('/admin/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
      const body = (await response.json().catch(() => ({}))) as { key?: string; error?: string };
      if (!response.ok || !body.key) throw new Error(body.error ?? `The server refused the link (${response.status}).`);
      storeToken(body.key, 'api-key', true);
      navigate('/projects', { replace: true });
    })().catch((failure: Error) => setError(failure.message));
  }, []);
  return (
    <main id="main" class="narrow" tabIndex={-1}>
      <h1>Signing in…</h1>
      {error ? (
        <>
          <ErrorNote error={error} />
          <p>
            <a href="/sign-in">Sign in with an API key instead</a>
          </p>
        </>
      ) : (
        <Loading label="Exchanging the one-time link for a key…" />
      )}
    </main>
  );
}

export function OidcCallback({ query }: { query: URLSearchParams }) {
  const [error, setError] = useState<string>();
  useEffect(() => {
    finishOidcSignIn(query).then(
      (next) => navigate(next, { replace: true }),
      (failure: Error) => setError(failure.message),
    );
  }, []);
  return (
    <main id="main" class="narrow" tabIndex={-1}>
      <h1>Signing in…</h1>
      {error ? (
        <>
          <ErrorNote error={error} />
          <p>
            <a href="/sign-in">Back to sign-in</a>
          </p>
        </>
      ) : (
        <Loading label="Completing the sign-in with the identity provider…" />
      )}
    </main>
  );
}
