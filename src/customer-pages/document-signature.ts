// The signing page's script (built by build.mjs, loaded with the page's CSP nonce): drawing a
// signature on a canvas, as an alternative to typing one. Without it the page still signs with
// the typed name; the drawing travels as a PNG data URL in a hidden field of the same form.
for (const box of document.querySelectorAll<HTMLElement>('[data-draw]')) {
  const canvas = box.querySelector('canvas')!;
  const output = box.querySelector<HTMLInputElement>('input[type=hidden]')!;
  const clear = box.querySelector<HTMLButtonElement>('[data-clear]')!;
  const ctx = canvas.getContext('2d');
  if (!ctx) continue;
  box.hidden = false;
  let drawn = false;
  let last: { x: number; y: number } | null = null;
  const size = () => {
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(canvas.clientWidth * ratio);
    canvas.height = Math.round(canvas.clientHeight * ratio);
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0F172A';
    drawn = false;
    output.value = '';
  };
  size();
  const at = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    last = at(e);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!last) return;
    const p = at(e);
    ctx.beginPath();
    ctx.moveTo(last.x, last.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    last = p;
    drawn = true;
  });
  const end = () => {
    last = null;
    if (drawn) output.value = canvas.toDataURL('image/png');
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  clear.addEventListener('click', () => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    drawn = false;
    output.value = '';
  });
}
