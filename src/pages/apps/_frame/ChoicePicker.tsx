import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ActionChoice, ActionChoicesAnswer } from '../../../../api/contract/platform';
import { formatMinor } from '../../../../api/contract/money';
import { errorMessage, type Api } from '../../../api/client';
import { Field } from '../../../ui/Field';
import { formatDate, formatDateTime } from '../../../ui/format';

// Pick, don't paste: what an agent sends (a published document or form, a product with its
// price) is chosen from a searchable list, never typed as an id. One picker for every app's
// `choice` field, in the console and in the Agent Preview: WAI-ARIA's editable combobox with a
// listbox popup and list autocomplete (the first match is highlighted as one types, Enter takes
// it). The list sits in the flow under the input, not over the page, so it is never cut off by
// a scrolling panel (the Agent Preview) and fits 360 px.

/** how long typing pauses before the list is asked again */
export const PICKER_DEBOUNCE_MS = 200;

/** One line that tells a choice apart from others of the same title: version and date, or price. */
export function choiceFacts(choice: ActionChoice, now = Date.now()): string {
  const parts: string[] = [];
  if (choice.price) parts.push(formatMinor(choice.price.amount, choice.price.currency));
  if (choice.version !== undefined) parts.push(`Version ${choice.version}`);
  if (choice.editedAt)
    parts.push(`${choice.version !== undefined ? 'published' : 'changed'} ${formatDate(choice.editedAt, now)}`);
  return parts.join(' · ');
}

type Props = {
  api: Api;
  /** where the choices are read (GET, `q` is the search) */
  path: string;
  label: string;
  name: string;
  required?: boolean;
  placeholder?: string;
  /** said when the account has nothing of the kind yet */
  empty?: string;
  error?: string | null;
  /** the chosen id ('' for none) */
  value: string;
  onChange: (id: string) => void;
};

type Loaded = { q: string; answer?: ActionChoicesAnswer; error?: unknown };

export function ChoicePicker({ api, path, label, name, required, placeholder, empty, error, value, onChange }: Props) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<ActionChoice | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // typed since the list last opened: the first match is then highlighted (list autocomplete)
  const [typed, setTyped] = useState(false);
  const listId = useId();
  const factsId = useId();
  const list = useRef<HTMLUListElement>(null);
  const cache = useRef(new Map<string, ActionChoicesAnswer>());

  // the form was reset (Start over): the picker empties too
  useEffect(() => {
    if (!value && chosen) {
      setChosen(null);
      setText('');
    }
  }, [value]); // eslint-disable-line react-hooks/exhaustive-deps

  // the chosen title in the box means "show everything", not "search for this title"
  const q = chosen && text === chosen.title ? '' : text.trim();

  useEffect(() => {
    if (!open) return;
    const cached = cache.current.get(q);
    if (cached) {
      setLoaded({ q, answer: cached });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        api.get<ActionChoicesAnswer>(path, { query: q ? { q } : undefined, signal: controller.signal }).then(
          (answer) => {
            cache.current.set(q, answer);
            setLoaded({ q, answer });
          },
          (e) => !controller.signal.aborted && setLoaded({ q, error: e }),
        );
      },
      loaded ? PICKER_DEBOUNCE_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, q, api, path]); // eslint-disable-line react-hooks/exhaustive-deps

  const current = loaded?.q === q ? loaded : null;
  const choices = current?.answer?.choices ?? [];
  const loading = open && !current;

  // list autocomplete: while typing, the first match is the one Enter takes
  useEffect(() => {
    if (current?.answer) setActive((i) => (typed && i < 0 && choices.length ? 0 : Math.min(i, choices.length - 1)));
  }, [current]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (active >= 0) list.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (choice: ActionChoice) => {
    setChosen(choice);
    setText(choice.title);
    setOpen(false);
    setActive(-1);
    setTyped(false);
    onChange(choice.id);
  };

  const show = (at: number) => {
    setOpen(true);
    setActive(at);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = choices.length;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) show(e.altKey ? -1 : 0);
        else if (n) setActive((i) => (i + 1) % n);
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) show(e.altKey ? -1 : Math.max(n - 1, 0));
        else if (n) setActive((i) => (i <= 0 ? n - 1 : i - 1));
        break;
      case 'Enter':
        // with the list open Enter takes the highlighted choice and never sends the form
        if (open) {
          e.preventDefault();
          const choice = choices[active];
          if (choice && current?.answer) choose(choice);
        }
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          e.stopPropagation();
          setOpen(false);
          setActive(-1);
        } else if (text) {
          e.preventDefault();
          e.stopPropagation();
          setText('');
          if (chosen) {
            setChosen(null);
            onChange('');
          }
        }
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  const titles = new Map<string, number>();
  for (const c of choices) titles.set(c.title, (titles.get(c.title) ?? 0) + 1);
  // what a screen reader hears when the list changes
  const status = !open
    ? ''
    : loading
      ? 'Loading…'
      : current?.error !== undefined
        ? errorMessage(current.error)
        : choices.length === 0
          ? q
            ? `Nothing matches "${q}".`
            : (empty ?? 'Nothing to choose from yet.')
          : `${choices.length}${current?.answer?.more ? '+' : ''} ${choices.length === 1 ? 'choice' : 'choices'}: arrow keys to move, Enter to choose.`;

  return (
    <Field label={label} error={error} required={required} hint={undefined}>
      {(control) => (
        <div className="picker">
          <input
            {...control}
            className="input"
            type="text"
            name={name}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 && choices[active] ? optionId(active) : undefined}
            aria-describedby={
              [control['aria-describedby'], chosen && value ? factsId : null].filter(Boolean).join(' ') || undefined
            }
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setTyped(true);
              setOpen(true);
              setActive(-1);
              if (chosen) {
                setChosen(null);
                onChange('');
              }
            }}
            onKeyDown={onKeyDown}
            onClick={() => (open ? setOpen(false) : show(-1))}
            onBlur={() => {
              setOpen(false);
              setActive(-1);
            }}
          />
          {chosen && value && (
            <p id={factsId} className="field-hint picker-facts">
              {choiceFacts(chosen)}
            </p>
          )}
          <p className="sr-only" aria-live="polite">
            {status}
          </p>
          <div className="picker-popup" hidden={!open}>
            {open && (loading || current?.error !== undefined || choices.length === 0) && (
              <p
                className={current?.error !== undefined ? 'picker-message picker-error' : 'picker-message muted'}
                aria-hidden="true"
              >
                {status}
              </p>
            )}
            <ul ref={list} id={listId} role="listbox" aria-label={label} className="picker-list">
              {open &&
                choices.map((c, i) => {
                  const facts = choiceFacts(c);
                  // two with one title are told apart by id as well
                  const twin = (titles.get(c.title) ?? 0) > 1 ? `id ${c.id.slice(0, 8)}` : null;
                  return (
                    <li
                      key={c.id}
                      id={optionId(i)}
                      role="option"
                      aria-selected={i === active}
                      aria-label={[c.title, facts, c.detail, twin].filter(Boolean).join(', ')}
                      className={i === active ? 'picker-option picker-option-active' : 'picker-option'}
                      // keep the focus in the box: the click chooses, the blur does not close first
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseEnter={() => setActive(i)}
                      onClick={() => choose(c)}
                    >
                      <span className="picker-option-title">{c.title}</span>
                      <span className="picker-option-facts muted">
                        {facts && <span title={c.editedAt ? formatDateTime(c.editedAt) : undefined}>{facts}</span>}
                        {twin && <span className="picker-option-id">{twin}</span>}
                      </span>
                      {c.detail && <span className="picker-option-detail muted">{c.detail}</span>}
                    </li>
                  );
                })}
            </ul>
            {open && current?.answer?.more && (
              <p className="picker-message muted">Showing the newest {choices.length}: type to narrow.</p>
            )}
          </div>
        </div>
      )}
    </Field>
  );
}
