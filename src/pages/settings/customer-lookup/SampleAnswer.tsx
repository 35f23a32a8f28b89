import { useMemo, useState } from 'react';
import type { LookupMappingField } from '../../../../api/contract/customer-lookup';
import {
  compileGjsonPath,
  gjsonFind,
  gjsonPathTo,
  parseRawJson,
  templatePlaceholderTo,
  type JsonNode,
  type JsonStep,
} from '../../../../api/contract/logic/lookup-paths';

// The endpoint's sample answer as a tree: the admin chooses a field, then activates a value and
// the field gets the path to it (templates get a {path} added). Every row is a native button in
// nested lists, so Tab and Enter reach everything without a custom key map.

export const FIELD_LABELS: Record<LookupMappingField, string> = {
  customerPath: 'Customers array path',
  customerId: 'Customer ID path',
  titleTemplate: 'Title template',
  descriptionTemplate: 'Description template',
};

/** What a pick does to a field: a path replaces it, a placeholder is added to a template. */
export type Pick = { field: LookupMappingField; value: string; mode: 'replace' | 'append' };

/** Items shown per array before "Show all": a sample of thousands stays quick to render. */
const FIRST_ITEMS = 20;
/** Below this many values the whole tree starts open; above it, the first two levels. */
const OPEN_ALL_UNDER = 300;

function countNodes(node: JsonNode): number {
  if (node.kind === 'array') return 1 + node.items.reduce((n, i) => n + countNodes(i), 0);
  if (node.kind === 'object') return 1 + node.entries.reduce((n, e) => n + countNodes(e.value), 0);
  return 1;
}

function summary(node: JsonNode): string {
  if (node.kind === 'array') return `[${node.items.length} item${node.items.length === 1 ? '' : 's'}]`;
  if (node.kind === 'object') return `{${node.entries.length} key${node.entries.length === 1 ? '' : 's'}}`;
  return node.raw;
}

/** The customers the typed customers path finds in the sample (what the lookup would iterate). */
function customersOf(doc: JsonNode, customerPath: string): JsonNode[] | null {
  if (!customerPath.trim()) return null;
  try {
    const found = gjsonFind(doc, compileGjsonPath(customerPath.trim()));
    if (found?.kind === 'array') return found.items;
    if (found?.kind === 'object') return [found];
  } catch {
    // a path outside the subset: the field itself says why
  }
  return null;
}

/** The answer to a pick: what to fill in, or why not. */
export function pickFor(
  field: LookupMappingField,
  doc: JsonNode,
  chain: JsonNode[],
  steps: JsonStep[],
  customerPath: string,
): Pick | { problem: string } {
  const node = chain[chain.length - 1]!;
  if (field === 'customerPath') {
    if (node.kind !== 'array' && node.kind !== 'object')
      return {
        problem: 'The customers array path leads to the list of customers: choose a list (or one customer), not a single value.',
      };
    const path = gjsonPathTo(doc, steps, node);
    return path === null
      ? { problem: 'No supported path reaches this value (an empty or repeated key). Type the path instead.' }
      : { field, value: path, mode: 'replace' };
  }
  const customers = customersOf(doc, customerPath);
  if (!customers) return { problem: 'Choose the customers array path first: the other fields are read inside one customer.' };
  // The nearest enclosing customer: by identity, or by its text when the path builds a new list (a query).
  let at = -1;
  for (let k = chain.length - 1; k >= 0 && at < 0; k--) if (customers.includes(chain[k]!)) at = k;
  for (let k = chain.length - 1; k >= 0 && at < 0; k--) if (customers.some((c) => c.raw === chain[k]!.raw)) at = k;
  if (at < 0 || at === chain.length - 1)
    return { problem: 'Choose a value inside one of the customers the customers array path finds.' };
  const customer = chain[at]!;
  const rel = steps.slice(at);
  if (field === 'customerId') {
    if (node.kind === 'object' || node.kind === 'array' || node.kind === 'null')
      return { problem: 'A customer ID is a single value (text or a number).' };
    const path = gjsonPathTo(customer, rel, node);
    return path === null
      ? { problem: 'No supported path reaches this value (an empty or repeated key). Type the path instead.' }
      : { field, value: path, mode: 'replace' };
  }
  const placeholder = templatePlaceholderTo(customer, rel, node);
  return placeholder === null
    ? { problem: 'A template cannot name this value (its key has braces or ends in a space).' }
    : { field, value: placeholder, mode: 'append' };
}

type RowProps = {
  name: string;
  node: JsonNode;
  chain: JsonNode[];
  steps: JsonStep[];
  depth: number;
  openDepth: number;
  onActivate: (chain: JsonNode[], steps: JsonStep[]) => void;
};

function Row({ name, node, chain, steps, depth, openDepth, onActivate }: RowProps) {
  const container = node.kind === 'array' || node.kind === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const [all, setAll] = useState(false);
  const where = steps.length ? steps.join(' › ') : 'the whole answer';
  const children: { name: string; node: JsonNode; step: JsonStep }[] =
    node.kind === 'array'
      ? node.items.map((n, i) => ({ name: String(i), node: n, step: i }))
      : node.kind === 'object'
        ? node.entries.map((e) => ({ name: e.key, node: e.value, step: e.key }))
        : [];
  const shown = all ? children : children.slice(0, FIRST_ITEMS);
  return (
    <li>
      <div className="json-row">
        {container ? (
          <button
            type="button"
            className="json-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${where}`}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="json-toggle" aria-hidden="true" />
        )}
        <span className="json-key">{name}:</span>
        <button
          type="button"
          className={`json-value json-${node.kind}`}
          title={`Use ${where}`}
          onClick={() => onActivate([...chain, node], steps)}
        >
          {summary(node)}
        </button>
      </div>
      {container && open ? (
        <ul>
          {shown.map((c, i) => (
            // by position: an answer may repeat a key
            <Row
              key={i}
              name={c.name}
              node={c.node}
              chain={[...chain, node]}
              steps={[...steps, c.step]}
              depth={depth + 1}
              openDepth={openDepth}
              onActivate={onActivate}
            />
          ))}
          {shown.length < children.length ? (
            <li>
              <button type="button" className="link-button" onClick={() => setAll(true)}>
                Show all {children.length}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

export function SampleAnswer({
  sample,
  customerPath,
  initialField,
  onPick,
}: {
  sample: string;
  customerPath: string;
  initialField: LookupMappingField;
  onPick: (pick: Pick) => void;
}) {
  const doc = useMemo(() => {
    try {
      return parseRawJson(sample);
    } catch {
      return null;
    }
  }, [sample]);
  const openDepth = useMemo(() => (doc && countNodes(doc) < OPEN_ALL_UNDER ? Infinity : 2), [doc]);
  const [field, setField] = useState<LookupMappingField>(initialField);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  if (!doc) return null;

  const activate = (chain: JsonNode[], steps: JsonStep[]) => {
    const pick = pickFor(field, doc, chain, steps, customerPath);
    if ('problem' in pick) return setSaid({ ok: false, text: pick.problem });
    onPick(pick);
    setSaid({
      ok: true,
      text:
        pick.mode === 'replace'
          ? `${FIELD_LABELS[field]} set to ${pick.value}`
          : `${pick.value} added to the ${FIELD_LABELS[field].toLowerCase()}`,
    });
  };

  return (
    <section className="sample-answer" aria-label="Sample answer">
      <p style={{ fontWeight: 600 }}>Sample answer</p>
      <fieldset className="fieldset">
        <legend className="field-label">Fill in</legend>
        <div className="sample-fields">
          {(Object.keys(FIELD_LABELS) as LookupMappingField[]).map((f) => (
            <label key={f} className="radio">
              <input type="radio" name="sample-field" value={f} checked={field === f} onChange={() => setField(f)} />
              <span>{FIELD_LABELS[f]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="field-hint">
        Then click the value to use. The customers array path is a list; the other fields are read inside one customer.
      </p>
      <p aria-live="polite" className={said ? (said.ok ? 'sample-said' : 'field-error') : 'sr-only'}>
        {said?.text ?? ''}
      </p>
      <ul className="json-tree" aria-label="Sample answer values">
        <Row name="answer" node={doc} chain={[]} steps={[]} depth={0} openDepth={openDepth} onActivate={activate} />
      </ul>
    </section>
  );
}
