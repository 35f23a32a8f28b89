// Shared with the console (it picks paths from a sample answer in the browser, and the browser
// takes only the contract from api/): writes the GJSON path that reaches one value of a sample document, so an admin can click a
// value instead of typing its path. Every path is checked by running it through our own
// evaluator (gjson.ts): a path is only offered when it finds that very node, never a look-alike
// (a duplicate key finds the first one; an empty key has no path in the subset).

import { escapeKey, gjsonFind, renderTemplate } from './gjson';
import type { JsonNode } from './raw-json';

// what the screen needs to read a sample and follow the customers path through it
export { compileGjsonPath, gjsonFind } from './gjson';
export { parseRawJson, type JsonNode } from './raw-json';

/** One step down a document: an object key or an array index. */
export type JsonStep = string | number;

/** The node at `steps` below `root`, by the document's structure (not by a path). */
export function nodeAt(root: JsonNode, steps: readonly JsonStep[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const step of steps) {
    if (!node) return undefined;
    if (typeof step === 'number') node = node.kind === 'array' ? node.items[step] : undefined;
    else node = node.kind === 'object' ? node.entries.find((e) => e.key === step)?.value : undefined;
  }
  return node;
}

/** The path as written, without checking it; `@this` stands for the root itself. */
function write(steps: readonly JsonStep[]): string | null {
  if (steps.length === 0) return '@this';
  const parts: string[] = [];
  for (const step of steps) {
    if (typeof step === 'number') parts.push(String(step));
    else if (step === '') return null;
    else parts.push(escapeKey(step));
  }
  return parts.join('.');
}

/**
 * The path from `root` to `target`, the node reached by `steps`; null when no path of the
 * supported subset finds exactly that node. `target` is compared by identity, so a path that
 * lands on an equal value elsewhere (the first of two duplicate keys) is refused.
 */
export function gjsonPathTo(root: JsonNode, steps: readonly JsonStep[], target: JsonNode): string | null {
  const path = write(steps);
  if (path === null) return null;
  try {
    return gjsonFind(root, path) === target ? path : null;
  } catch {
    return null;
  }
}

/**
 * A `{path}` placeholder for a template that renders `target` inside `customer`; null when the
 * template syntax cannot carry the path (braces in a key, a key ending in a space).
 */
export function templatePlaceholderTo(customer: JsonNode, steps: readonly JsonStep[], target: JsonNode): string | null {
  const path = gjsonPathTo(customer, steps, target);
  // renderTemplate trims what is between the braces and stops at any brace
  if (path === null || /[{}]/.test(path) || path !== path.trim()) return null;
  const placeholder = `{${path}}`;
  const expected = target.kind === 'null' ? '' : target.kind === 'string' ? target.value : target.raw;
  return renderTemplate(placeholder, customer) === expected ? placeholder : null;
}
