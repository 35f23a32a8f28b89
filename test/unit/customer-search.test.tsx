import { act, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CustomerResult } from '../../api/contract/results';
import { SEARCH_DEBOUNCE_MS, useCustomerSearch } from '../../src/pages/search/useCustomerSearch';
import { here, makeBootstrap, mockApi, renderSignedIn } from './helpers';

const result = (over: Partial<CustomerResult> = {}): CustomerResult => ({
  id: 'r1',
  app: 'passkeys',
  status: 'success',
  timestamp: new Date().toISOString(),
  sessionRef: 'ses_0123456789abcdef',
  phoneNumber: '+14155550042',
  customerRef: 'CUST-1',
  ...over,
});

const searchCalls = (calls: { path: string; url: string }[]) =>
  calls.filter((c) => c.path === '/api/results/customer').map((c) => new URL(c.url).searchParams.get('customerRef'));

describe('customer search: debounce', () => {
  it('sends the trimmed query once typing pauses for 300 ms, not on every keystroke', async () => {
    vi.useFakeTimers();
    const { calls } = mockApi({ 'GET /api/results/customer': { body: { results: [] } } });
    const { rerender } = renderHook(({ q }) => useCustomerSearch(q), { initialProps: { q: 'C' } });
    rerender({ q: 'CU' });
    rerender({ q: ' CUST-1 ' });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1));
    expect(searchCalls(calls)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(searchCalls(calls)).toEqual(['CUST-1']);
  });

  it('an empty query clears the results at once and sends nothing', async () => {
    vi.useFakeTimers();
    const { calls } = mockApi({ 'GET /api/results/customer': { body: { results: [result()] } } });
    const { result: hook, rerender } = renderHook(({ q }) => useCustomerSearch(q), { initialProps: { q: 'CUST-1' } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 10));
    expect(hook.current.results).toHaveLength(1);
    rerender({ q: '   ' });
    expect(hook.current).toMatchObject({ term: '', results: undefined, loading: false });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(searchCalls(calls)).toEqual(['CUST-1']);
  });
});

describe('customer search dialog', () => {
  // The dialog is a lazy page: on a fresh clone vitest compiles it on first use, which can take
  // longer than a find waits. Compile it (and the app area the first test opens it over) before
  // the tests so they time the dialog, not the compiler.
  beforeAll(
    () =>
      Promise.all([import('../../src/pages/search'), import('../../src/pages/apps'), import('../../src/pages/apps/passkeys')]),
    60_000,
  );
  const open = () => fireEvent.keyDown(window, { key: 'k', ctrlKey: true });

  it('opens with Ctrl+K and with Cmd+K', async () => {
    renderSignedIn('/passkeys', makeBootstrap({ role: 'admin' }));
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    expect(await screen.findByRole('dialog', { name: 'Search customers' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.keyDown(window, { key: 'K', metaKey: true });
    expect(await screen.findByRole('dialog', { name: 'Search customers' })).toBeTruthy();
  });

  it('lists results with long ids shortened to their first and last 6 characters', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': { body: { results: [result(), result({ id: 'r2', sessionRef: 'short_ref' })] } },
    });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: 'CUST-1' } });
    const options = await screen.findAllByRole('option');
    expect(options[0]!.textContent).toContain('ses_01…abcdef');
    expect(options[0]!.textContent).not.toContain('ses_0123456789abcdef');
    expect(options[1]!.textContent).toContain('short_ref');
  });

  it('keeps the first-and-last-6 rule for session ids that share them, and tells them apart in the tooltip and the spoken name', async () => {
    const refs = ['ses_demo0001a1b2c3d4e5f6', 'ses_demo0002a1b2c3d4e5f6'];
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': { body: { results: refs.map((sessionRef, i) => result({ id: `r${i}`, sessionRef })) } },
    });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: 'CUST-1' } });
    const options = await screen.findAllByRole('option');
    // SPEC §2 and §9: first and last 6, whatever the other results are
    expect(options.map((o) => o.querySelector('.search-item-ref')!.textContent)).toEqual(['ses_de…d4e5f6', 'ses_de…d4e5f6']);
    expect(options.map((o) => o.querySelector('.search-item-ref')!.getAttribute('title'))).toEqual(refs);
    expect(options.map((o) => o.getAttribute('aria-label'))).toEqual(
      refs.map((ref) => expect.stringContaining(`session ${ref}`)),
    );
  });

  it('shows the customer, a masked phone number, the status and the app in each row', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': {
        body: { results: [result({ customerRef: 'CUST-100042', phoneNumber: '+14155550142', status: 'failure' })] },
      },
    });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: '+14155550142' } });
    const [option] = await screen.findAllByRole('option');
    expect(option!.textContent).toContain('CUST-100042');
    expect(option!.textContent).toContain('+1 ••• 0142');
    expect(option!.textContent).not.toContain('+14155550142');
    expect(option!.textContent).toContain('Passkeys');
    expect(option!.textContent).toContain('Failure');
    expect(option!.getAttribute('aria-label')).toMatch(/^Passkeys, customer CUST-100042, phone ending 0142, Failure, /);
  });

  it('says nothing was found, and suggests another customer ID', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), { 'GET /api/results/customer': { body: { results: [] } } });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: 'NOPE' } });
    expect(await screen.findByText('No results found for "NOPE"')).toBeTruthy();
    expect(screen.getByText('Try searching for a different customer ID.')).toBeTruthy();
  });

  it('reports a failed search', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), { 'GET /api/results/customer': { status: 500, body: {} } });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: 'CUST-1' } });
    expect((await screen.findByText('An error occurred during search')).getAttribute('role')).toBe('alert');
  });

  it('arrow keys choose a result and Enter opens it in its app', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': {
        body: { results: [result(), result({ id: 'r2', app: 'one-time-passcode', sessionRef: 'ses_second' })] },
      },
    });
    await screen.findByRole('button', { name: /Search customers/ });
    open();
    const input = await screen.findByRole('combobox');
    fireEvent.change(input, { target: { value: 'CUST-1' } });
    await screen.findAllByRole('option');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(here()).toBe('/one-time-passcode/authentications?session=ses_second'));
    // the search is closed (the session's own detail dialog may already be opening over its page)
    expect(screen.queryByRole('dialog', { name: 'Search customers' })).toBeNull();
  });

  it('shows the spinner 300 ms after the search goes out (after the 300 ms pause), and keeps it at least 500 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    let answer!: () => void;
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': () => new Promise((resolve) => (answer = () => resolve({ body: { results: [] } }))),
    });
    await act(() => vi.advanceTimersByTimeAsync(50));
    open();
    await act(() => vi.advanceTimersByTimeAsync(50));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'CUST-1' } });
    // the 300 ms pause: the search goes out at its end, with no spinner yet
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(answer).toBeTypeOf('function');
    expect(screen.queryByText('Searching')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(screen.queryByText('Searching')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText('Searching')).toBeTruthy();
    // the answer comes at once; the spinner stays its 500 ms
    await act(async () => answer());
    await act(() => vi.advanceTimersByTimeAsync(450));
    expect(screen.getByText('Searching')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(screen.queryByText('Searching')).toBeNull();
  });

  it('shows no spinner when the answer comes within 300 ms of the search going out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    let answer!: () => void;
    renderSignedIn('/', makeBootstrap({ role: 'admin' }), {
      'GET /api/results/customer': () => new Promise((resolve) => (answer = () => resolve({ body: { results: [] } }))),
    });
    await act(() => vi.advanceTimersByTimeAsync(50));
    open();
    await act(() => vi.advanceTimersByTimeAsync(50));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'CUST-1' } });
    await act(() => vi.advanceTimersByTimeAsync(300 + 250));
    await act(async () => answer());
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Searching')).toBeNull();
    expect(screen.getByText('No results found for "CUST-1"')).toBeTruthy();
  });
});
