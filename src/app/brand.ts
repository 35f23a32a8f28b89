const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function contrastText(hex: string): '#000000' | '#ffffff' {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** The account's brand colour as CSS variables; an invalid or missing colour keeps the default. */
export function applyBrandColor(color: string | undefined): void {
  const style = document.documentElement.style;
  if (color && HEX.test(color)) {
    style.setProperty('--brand', color);
    style.setProperty('--brand-contrast', contrastText(color));
  } else {
    style.removeProperty('--brand');
    style.removeProperty('--brand-contrast');
  }
}
