// Data loading for views: one API read with its loading and error states, reloadable.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

export function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean; of?: string }>({ loading: path !== null });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    api<T>(path, { signal: controller.signal }).then(
      (data) => setState({ data, loading: false, of: path }),
      (error: Error) => {
        // A failed reload of the same address keeps what is shown; another address shows the error alone.
        if (error.name !== 'AbortError') setState((previous) => (previous.of === path ? { ...previous, error, loading: false } : { error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [path, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Runs an action (a write), tracking busy and the error message to show. */
export function useAction(): { busy: boolean; error: string | undefined; run: (action: () => Promise<unknown>) => Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError((failure as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}
