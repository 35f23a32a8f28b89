import { useEffect, useRef, useState, type ButtonHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { FAILURE_FLASH_MS, SUCCESS_FLASH_MS } from './constants';
import { InvalidFields } from './invalid-fields';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
type Phase = 'idle' | 'loading' | 'success' | 'failure';

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** When this returns a promise the button shows loading, then a success or failure flash. */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  /** Shown during the success flash instead of the children. */
  successLabel?: ReactNode;
  /** Shown during the failure flash instead of the children. */
  failureLabel?: ReactNode;
  icon?: ReactNode;
};

export function Button({
  variant = 'secondary',
  size = 'md',
  onClick,
  successLabel = 'Done',
  failureLabel = 'Failed',
  icon,
  children,
  className,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  const [phase, setPhase] = useState<Phase>('idle');
  const mounted = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const flash = (next: 'success' | 'failure') => {
    if (!mounted.current) return;
    setPhase(next);
    timer.current = setTimeout(
      () => mounted.current && setPhase('idle'),
      next === 'success' ? SUCCESS_FLASH_MS : FAILURE_FLASH_MS,
    );
  };

  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (phase === 'loading') return;
    const result = onClick?.(event);
    if (!isThenable(result)) return;
    clearTimeout(timer.current);
    setPhase('loading');
    // The caller reports the failure (a toast, a field error); the button only reflects it. Wrong
    // fields are said on the fields, where focus goes: the button keeps its own label.
    Promise.resolve(result).then(
      () => flash('success'),
      (error: unknown) => (error instanceof InvalidFields ? mounted.current && setPhase('idle') : flash('failure')),
    );
  };

  const busy = phase === 'loading';
  const content =
    phase === 'success' ? (
      <>
        <span aria-hidden="true">✓</span> {successLabel}
      </>
    ) : phase === 'failure' ? (
      <>
        <span aria-hidden="true">✕</span> {failureLabel}
      </>
    ) : (
      <>
        {busy ? <Spinner size="sm" label="Working" /> : icon}
        {children}
      </>
    );

  return (
    <button
      {...rest}
      type={type}
      className={['btn', `btn-${variant}`, size === 'sm' && 'btn-sm', phase !== 'idle' && `btn-${phase}`, className]
        .filter(Boolean)
        .join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      data-phase={phase}
      onClick={handleClick}
    >
      {content}
    </button>
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
