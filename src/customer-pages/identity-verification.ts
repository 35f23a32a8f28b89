// The identity verification page's script (the page works without it): says which photo was
// chosen and its size, warns before a too-large photo is sent, and shows "Sending…" while a
// photo goes up on a slow network.
const LIMIT = 8 * 1024 * 1024;
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-idv-photo]')) {
  const note = form.querySelector<HTMLElement>('[data-idv-chosen]');
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
  const files = () => [...form.querySelectorAll<HTMLInputElement>('input[type=file]')].map((i) => i.files?.[0]).filter((f): f is File => !!f);
  form.addEventListener('change', () => {
    const file = files()[0];
    if (!note || !file) return;
    const size = file.size >= 1048576 ? `${(file.size / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(file.size / 1024))} KB`;
    note.textContent = file.size > LIMIT ? `This photo is ${size}: the limit is 8 MB. Take it again or choose a smaller one.` : `Chosen: ${file.name || 'photo'} (${size})`;
  });
  form.addEventListener('submit', (event) => {
    const file = files()[0];
    if (!file || file.size > LIMIT) {
      event.preventDefault();
      if (note) note.textContent = file ? 'This photo is larger than 8 MB. Take it again or choose a smaller one.' : 'Take or choose a photo first.';
      return;
    }
    if (button) {
      button.disabled = true;
      button.textContent = 'Sending…';
    }
  });
}
