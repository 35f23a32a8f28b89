import type { Child } from 'hono/jsx';

// Server pages (customer pages, the terms) are JSX made into one string. hono/jsx's own
// `String(node)` runs every render inside an AsyncLocalStorage context (so an async component
// can read a context after an await; no page of ours has one). On Node 20 the first
// `AsyncLocalStorage.run` turns on V8's promise hooks for the whole process, for good: from the
// first customer page on, every promise of every request, the console's API included, paid for
// them. A page renders synchronously into hono's own buffer instead, through the method its
// `toString` uses, with no context.

type Renderable = { toStringToBuffer(buffer: string[]): void };
type RenderBuffer = string[] & { callbacks?: unknown[] };

const isRenderable = (node: unknown): node is Renderable => typeof (node as Renderable | null)?.toStringToBuffer === 'function';

/** The HTML of a JSX tree whose components are all synchronous (an async one is a mistake: it throws). */
export function renderHtml(node: Child): string {
  if (!isRenderable(node)) throw new Error('renderHtml: a JSX element expected');
  const buffer: RenderBuffer = [''];
  node.toStringToBuffer(buffer);
  if (buffer.length !== 1 || buffer.callbacks?.length)
    throw new Error('renderHtml: a page component is asynchronous; pages render synchronously');
  return buffer[0]!;
}
