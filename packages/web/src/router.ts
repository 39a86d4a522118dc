// Routes live in the URL (history API): links can be shared and the back button works. Same-origin
// <a href> clicks are handled here instead of reloading the page.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const read = (): Location => ({ path: location.pathname, query: new URLSearchParams(location.search) });
const listeners = new Set<(location: Location) => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  const next = read();
  listeners.forEach((listener) => listener(next));
}

addEventListener('popstate', () => {
  const next = read();
  listeners.forEach((listener) => listener(next));
});

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  // An in-page anchor (the skip link) keeps the browser's own scrolling and focus.
  if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

export function useLocation(): Location {
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    listeners.add(setCurrent);
    return () => void listeners.delete(setCurrent);
  }, []);
  return current;
}

/** Matches `/projects/:id/issues` style patterns; returns the named segments or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(have[i]!);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** The current query with some keys replaced (empty values removed). */
export function withQuery(query: URLSearchParams, changes: Record<string, string | number | undefined>): string {
  const next = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  const text = next.toString();
  return text ? `?${text}` : '';
}

/** A `next` parameter as an in-app path; anything else (another origin, `//host`) becomes /projects. */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/projects';
}
