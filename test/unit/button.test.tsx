import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Button } from '../../src/ui/Button';
import { FAILURE_FLASH_MS, SUCCESS_FLASH_MS } from '../../src/ui/constants';
import { InvalidFields } from '../../src/ui/invalid-fields';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const button = () => screen.getByRole('button');

describe('Button', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows loading and stays disabled while its action runs', () => {
    const action = deferred();
    render(<Button onClick={() => action.promise}>Save</Button>);
    fireEvent.click(button());
    expect(button().getAttribute('aria-busy')).toBe('true');
    expect((button() as HTMLButtonElement).disabled).toBe(true);
  });

  it('flashes success for 1250 ms after the action succeeds', async () => {
    const action = deferred();
    render(<Button onClick={() => action.promise}>Save</Button>);
    fireEvent.click(button());
    await act(async () => action.resolve());
    expect(button().textContent).toContain('Done');
    act(() => vi.advanceTimersByTime(SUCCESS_FLASH_MS - 1));
    expect(button().getAttribute('data-phase')).toBe('success');
    act(() => vi.advanceTimersByTime(1));
    expect(button().textContent).toBe('Save');
  });

  it('flashes failure for 1875 ms after the action fails', async () => {
    const action = deferred();
    render(<Button onClick={() => action.promise}>Save</Button>);
    fireEvent.click(button());
    await act(async () => action.reject(new Error('nope')));
    expect(button().textContent).toContain('Failed');
    act(() => vi.advanceTimersByTime(FAILURE_FLASH_MS - 1));
    expect(button().getAttribute('data-phase')).toBe('failure');
    act(() => vi.advanceTimersByTime(1));
    expect(button().textContent).toBe('Save');
  });

  it('keeps its label when the action rejects because fields are wrong (they say so themselves)', async () => {
    const action = deferred();
    render(<Button onClick={() => action.promise}>Save</Button>);
    fireEvent.click(button());
    await act(async () => action.reject(new InvalidFields({ name: 'Name is required' })));
    expect(button().textContent).toBe('Save');
    expect(button().getAttribute('data-phase')).toBe('idle');
    expect((button() as HTMLButtonElement).disabled).toBe(false);
  });

  it('does nothing special for an action that returns no promise', () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Open</Button>);
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledOnce();
    expect(button().getAttribute('data-phase')).toBe('idle');
  });

  it('uses the flash durations of the specification', () => {
    expect([SUCCESS_FLASH_MS, FAILURE_FLASH_MS]).toEqual([1250, 1875]);
  });
});
