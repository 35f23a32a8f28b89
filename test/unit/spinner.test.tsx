import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS, SPINNER_MIN_VISIBLE_MS } from '../../src/ui/constants';
import { useDelayedSpinner } from '../../src/ui/Spinner';

describe('useDelayedSpinner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows no spinner during the first 300 ms of loading', () => {
    const { result } = renderHook(({ loading }) => useDelayedSpinner(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS - 1));
    expect(result.current).toBe(false);
  });

  it('shows the spinner once loading passes 300 ms', () => {
    const { result } = renderHook(({ loading }) => useDelayedSpinner(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS));
    expect(result.current).toBe(true);
  });

  it('never shows the spinner for a load shorter than 300 ms', () => {
    const { result, rerender } = renderHook(({ loading }) => useDelayedSpinner(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(200));
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current).toBe(false);
  });

  it('keeps a shown spinner for at least 500 ms after loading ends', () => {
    const { result, rerender } = renderHook(({ loading }) => useDelayedSpinner(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS + 100));
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(SPINNER_MIN_VISIBLE_MS - 101));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });

  it('hides a spinner shown for longer than 500 ms as soon as loading ends', () => {
    const { result, rerender } = renderHook(({ loading }) => useDelayedSpinner(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS + SPINNER_MIN_VISIBLE_MS + 10));
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(false);
  });
});
