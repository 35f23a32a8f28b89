// SMS templates as the editor handles them: {{name}} placeholders, inserted at the caret, filled
// with sample values for the preview (the server fills the real ones when it sends).

const PLACEHOLDER = /\{\{\s*([a-z][a-zA-Z0-9_]*)\s*\}\}/g;

export function placeholdersIn(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/** The text with every known placeholder filled; unknown ones stay visible as typed. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

/** Inserts `{{name}}` at the selection, replacing it; answers the new text and caret position. */
export function insertPlaceholder(
  text: string,
  name: string,
  start: number,
  end: number = start,
): { text: string; caret: number } {
  const token = `{{${name}}}`;
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  return { text: text.slice(0, s) + token + text.slice(e), caret: s + token.length };
}

export function missingPlaceholders(template: string, required: readonly string[]): string[] {
  const present = new Set(placeholdersIn(template));
  return required.filter((name) => !present.has(name));
}

export function unknownPlaceholders(template: string, known: readonly string[]): string[] {
  return placeholdersIn(template).filter((name) => !known.includes(name));
}
