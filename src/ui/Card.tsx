import type { HTMLAttributes, ReactNode } from 'react';

export function Card({ title, actions, children, className, ...rest }: HTMLAttributes<HTMLElement> & { title?: ReactNode; actions?: ReactNode }) {
  return (
    <section {...rest} className={['card', className].filter(Boolean).join(' ')}>
      {(title || actions) && (
        <header className="card-header">
          {title && <h2 className="card-title">{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

/** What a list or panel shows when it has nothing in it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

/** The honest stand-in for a screen a later piece of work will build. */
export function NotBuiltYet({ title, nav, children }: { title: string; nav?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page">
      <h1 className="page-title">{title}</h1>
      {nav}
      <Card>
        <p className="badge badge-neutral">Not built yet</p>
        <p>{children ?? 'This screen is not built yet. It will arrive in a later release of the console.'}</p>
      </Card>
    </div>
  );
}
