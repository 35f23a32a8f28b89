import { useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS } from './constants';
import { referenceOf } from '../api/client';

export type ToastKind = 'success' | 'error';
/** `reference`: the failed request's id, for the user to quote to support */
export type ToastItem = { id: number; kind: ToastKind; title: string; description?: string; reference?: string };

// A module-level store, so any code (not only components) can raise a toast.
let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function dismiss(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, title: string, description?: string, reference?: string): number {
  const id = nextId++;
  items = [...items, { id, kind, title, description, reference }];
  emit();
  setTimeout(() => dismiss(id), TOAST_DURATION_MS);
  return id;
}

export const toast = {
  success: (title: string, description?: string) => show('success', title, description),
  /** `failure`: the error behind it; an API failure's request id is shown as its reference */
  error: (title: string, description?: string, failure?: unknown) => show('error', title, description, referenceOf(failure)),
  dismiss,
  clear() {
    items = [];
    emit();
  },
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => items;

/** Renders the toasts; mounted once by the shell. Errors are announced assertively. */
export function Toaster() {
  const list = useSyncExternalStore(subscribe, snapshot, snapshot);
  return (
    <div className="toaster">
      <div aria-live="polite" className="toaster-region">
        {list
          .filter((t) => t.kind === 'success')
          .map((t) => (
            <ToastView key={t.id} item={t} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="toaster-region">
        {list
          .filter((t) => t.kind === 'error')
          .map((t) => (
            <ToastView key={t.id} item={t} />
          ))}
      </div>
    </div>
  );
}

function ToastView({ item }: { item: ToastItem }) {
  return (
    <div className={`toast toast-${item.kind}`}>
      <div className="toast-body">
        <p className="toast-title">{item.title}</p>
        {item.description && <p className="toast-description">{item.description}</p>}
        {item.reference && <p className="toast-reference">Reference: {item.reference}</p>}
      </div>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(item.id)}>
        ×
      </button>
    </div>
  );
}
