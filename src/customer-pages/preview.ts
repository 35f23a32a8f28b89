// The preview customer page's script (built by build.mjs into a hashed file, loaded with the
// page's CSP nonce): in a preview, Continue only says that nothing happens, in the page's
// language (the server wrote the words into data-note).
const button = document.querySelector<HTMLButtonElement>('button[data-preview-continue]');
const note = document.querySelector<HTMLElement>('[data-preview-note]');
if (button && note) {
  button.addEventListener('click', () => {
    note.textContent = button.dataset.note ?? '';
  });
}
