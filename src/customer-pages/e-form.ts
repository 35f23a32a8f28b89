// The eForm customer page's script: the form's live rules with the evaluator the server uses
// (api/contract/logic/e-form-rules.ts), so a field shows, hides and is checked as they type exactly
// as the server will check it. Without this script the form still posts and the server answers.
// The words of each problem come from the server in the page's language (messages, by field and code).
import { evaluateForm, fieldProblem, type Answers, type FormDefinitionShape } from '../../api/contract/logic/e-form-rules';

const form = document.querySelector<HTMLFormElement>('form[data-eform]');
const source = document.getElementById('ef-definition');

if (form && source) {
  const { definition, prefill, messages } = JSON.parse(source.textContent || '{}') as {
    definition: FormDefinitionShape;
    prefill: Answers;
    messages: Record<string, Record<string, string>>;
  };
  const summary = document.getElementById('ef-summary');
  const touched = new Set<string>();

  const inputs = (id: string) => Array.from(form.querySelectorAll<HTMLInputElement>(`[name="${CSS.escape(id)}"]`));

  const read = (): Answers => {
    const answers: Answers = { ...prefill };
    for (const field of definition.fields) {
      const els = inputs(field.id);
      if (field.type === 'single_choice') answers[field.id] = els.find((e) => e.checked)?.value ?? '';
      else if (field.type === 'multiple_choice') answers[field.id] = els.filter((e) => e.checked).map((e) => e.value);
      else if (field.type === 'consent') answers[field.id] = !!els[0]?.checked;
      else if (field.type === 'file') {
        const file = els[0]?.files?.[0];
        answers[field.id] = file ? { name: file.name, size: file.size, type: file.type || 'application/octet-stream' } : null;
      } else answers[field.id] = els[0]?.value ?? '';
    }
    return answers;
  };

  /** Shows and hides fields, and writes each touched field's message; answers the errors. */
  const update = (all: boolean): string[] => {
    const answers = read();
    const { visible, required } = evaluateForm(definition, answers);
    const failing: string[] = [];
    for (const field of definition.fields) {
      const box = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field.id)}"]`);
      if (!box) continue;
      const shown = visible.has(field.id);
      box.hidden = !shown;
      const problem = shown ? fieldProblem(field, answers[field.id], required.has(field.id)) : null;
      const error = problem ? (messages[field.id]?.[problem.code] ?? '') : null;
      if (problem) failing.push(field.id);
      const line = box.querySelector<HTMLElement>('[data-error-for]');
      const showIt = !!problem && (all || touched.has(field.id));
      if (line) line.textContent = showIt ? error : '';
      const target = box.querySelector('fieldset') ?? inputs(field.id)[0];
      if (showIt) target?.setAttribute('aria-invalid', 'true');
      else target?.removeAttribute('aria-invalid');
      const mark = box.querySelector('.ef-req');
      if (mark) mark.toggleAttribute('hidden', !required.has(field.id));
    }
    return failing;
  };

  const onEdit = (event: Event) => {
    const name = (event.target as HTMLInputElement).name;
    // text is checked once the customer leaves it (not on their first keystroke), choices at once
    if (name && (event.type === 'change' || touched.has(name))) touched.add(name);
    update(false);
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  form.addEventListener('focusout', (event) => {
    const name = (event.target as HTMLInputElement).name;
    if (name) touched.add(name);
    update(false);
  });
  form.addEventListener('submit', (event) => {
    // after a submit every message stays up until its answer is fixed
    for (const field of definition.fields) touched.add(field.id);
    const failing = update(true);
    if (!failing.length) return;
    event.preventDefault();
    if (summary) {
      // the words come from the server in the page's language, one per possible count
      const words = (JSON.parse(form.dataset.correct || '{}') as Record<string, string>)[String(failing.length)];
      const p = document.createElement('p');
      p.className = 'ef-summary';
      p.textContent = words ?? '';
      summary.replaceChildren(p);
    }
    const first = form.querySelector<HTMLElement>(
      `[data-field="${CSS.escape(failing[0]!)}"] input, [data-field="${CSS.escape(failing[0]!)}"] select, [data-field="${CSS.escape(failing[0]!)}"] textarea`,
    );
    first?.focus();
  });
  update(false);
}
