// The identity verification page's script (the page works without it): says which photo was
// chosen and its size, warns before a too-large photo is sent, and shows "Sending…" while a
// photo goes up on a slow network. Its words come from the server, in the page's language
// (data-* on [data-idv]); sizes are written by Intl in that language.
const root = document.querySelector<HTMLElement>('[data-idv]');
const words = root?.dataset ?? {};
const limit = Number(words.limit) || 8 * 1024 * 1024;
const lang = document.documentElement.lang || undefined;

function sizeText(bytes: number): string {
  const mb = bytes >= 1048576;
  const value = mb ? Math.round((bytes / 1048576) * 10) / 10 : Math.max(1, Math.round(bytes / 1024));
  return new Intl.NumberFormat(lang, { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(
    value,
  );
}
const fill = (text: string | undefined, values: Record<string, string>) =>
  (text ?? '').replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-idv-photo]')) {
  const note = form.querySelector<HTMLElement>('[data-idv-chosen]');
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
  const files = () =>
    [...form.querySelectorAll<HTMLInputElement>('input[type=file]')].map((i) => i.files?.[0]).filter((f): f is File => !!f);
  form.addEventListener('change', () => {
    const file = files()[0];
    if (!note || !file) return;
    const size = sizeText(file.size);
    note.textContent = file.size > limit ? fill(words.tooLarge, { size }) : fill(words.chosen, { name: file.name || '', size });
  });
  form.addEventListener('submit', (event) => {
    const file = files()[0];
    if (!file || file.size > limit) {
      event.preventDefault();
      if (note) note.textContent = file ? fill(words.tooLarge, { size: sizeText(file.size) }) : (words.noPhoto ?? '');
      return;
    }
    if (button) {
      button.disabled = true;
      button.textContent = words.sending ?? '';
    }
  });
}
