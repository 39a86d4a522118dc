// Small shared pieces: loading, empty and error states, status badges, formatting.
import { cloneElement, type ComponentChildren, type VNode } from 'preact';
import { useId } from 'preact/hooks';
import type { Loaded } from './hooks.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function ErrorNote({ error }: { error: Error | string | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {typeof error === 'string' ? error : error.message}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** Renders `children(data)` once loaded; loading and error states otherwise. */
export function Load<T>({ state, children, label }: { state: Loaded<T>; children: (data: T) => ComponentChildren; label?: string }) {
  if (state.error && state.data === undefined) return <ErrorNote error={state.error} />;
  if (state.data === undefined) return <Loading label={label} />;
  // A failed reload keeps what was shown and says why it is not fresh.
  return (
    <>
      {state.error ? <ErrorNote error={`Could not refresh: ${state.error.message}`} /> : null}
      {children(state.data)}
    </>
  );
}

export function Badge({ tone, children }: { tone: string; children: ComponentChildren }) {
  return <span class={`badge tone-${tone}`}>{children}</span>;
}

export function Grade({ grade, score }: { grade: string; score?: number }) {
  return (
    <span class={`grade grade-${grade.toLowerCase()}`} aria-label={`grade ${grade}${score === undefined ? '' : `, score ${Math.round(score)}`}`}>
      {grade}
    </span>
  );
}

export const fmtDate = (value: string | null | undefined): string => (value ? new Date(value).toLocaleString() : '—');
export const fmtNumber = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined || Number.isNaN(value) ? '—' : value.toLocaleString(undefined, { maximumFractionDigits: digits });
export const fmtSigned = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(digits)}`;
/** `1 issue`, `2 issues`. */
export const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;
export const label = (key: string): string => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function Field({ label: text, children, hint }: { label: string; children: VNode; hint?: string }) {
  const id = useId();
  const control = cloneElement(children, { id, ...(hint ? { 'aria-describedby': `${id}-hint` } : {}) });
  return (
    <div class="field">
      <label for={id}>{text}</label>
      {control}
      {hint ? (
        <small class="muted" id={`${id}-hint`}>
          {hint}
        </small>
      ) : null}
    </div>
  );
}
