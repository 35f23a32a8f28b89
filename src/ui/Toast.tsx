import { useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS } from './constants';

export type ToastKind = 'success' | 'error';
export type ToastItem = { id: number; kind: ToastKind; title: string; description?: string };

// A module-level store, so any code (not only components) can raise a toast.
let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function dismiss(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, title: string, description?: string): number {
  const id = nextId++;
  items = [...items, { id, kind, title, description }];
  emit();
  setTimeout(() => dismiss(id), TOAST_DURATION_MS);
  return id;
}

export const toast = {
  success: (title: string, description?: string) => show('success', title, description),
  error: (title: string, description?: string) => show('error', title, description),
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
        {list.filter((t) => t.kind === 'success').map((t) => <ToastView key={t.id} item={t} />)}
      </div>
      <div role="alert" aria-live="assertive" className="toaster-region">
        {list.filter((t) => t.kind === 'error').map((t) => <ToastView key={t.id} item={t} />)}
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
      </div>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(item.id)}>
        ×
      </button>
    </div>
  );
}
