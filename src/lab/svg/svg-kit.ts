/**
 * The one SVG kit (the bench's report charts, route-eval's reliability diagram): escaped text,
 * fixed-precision numbers, the chart element, labels and axes. Deterministic: the same data
 * draws the same bytes.
 */

/** Text for HTML and SVG alike: in an element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Coordinates with one decimal, so the same data draws the same bytes. */
export function at(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

/** A number with exactly one decimal (`3.0`): `at` drops a trailing zero, this keeps it. */
export function fixed(value: number): string {
  return value.toFixed(1);
}

export function svgElement(options: { width: number; height: number; label: string; kind: string; body: readonly string[] }): string {
  const { width, height, label, kind, body } = options;
  return [
    `<svg class="chart ${kind}" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeHtml(label)}</title>`,
    ...body,
    "</svg>",
  ].join("\n");
}

export function label(x: number, y: number, text: string, options: { anchor?: "start" | "middle" | "end"; size?: number; weight?: string } = {}): string {
  const anchor = options.anchor ?? "start";
  const weight = options.weight ? ` font-weight="${options.weight}"` : "";
  return `<text x="${at(x)}" y="${at(y)}" text-anchor="${anchor}" font-size="${options.size ?? 11}"${weight}>${escapeHtml(text)}</text>`;
}

/** A round upper bound for an axis whose four ticks are round too: 1, 2, 4, 6 or 8 times a power of ten. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** A left axis from 0 to `max` with 5 ticks and grid lines across `width`. */
export function yAxis(options: { x: number; top: number; height: number; width: number; max: number; format: (value: number) => string }): string[] {
  const { x, top, height, width, max, format } = options;
  const lines: string[] = [];
  for (let tick = 0; tick <= 4; tick += 1) {
    const value = (max * tick) / 4;
    const y = top + height - (height * tick) / 4;
    lines.push(`<line x1="${at(x)}" y1="${at(y)}" x2="${at(x + width)}" y2="${at(y)}" stroke="#e5e7eb"/>`);
    lines.push(label(x - 4, y + 4, format(value), { anchor: "end", size: 10 }));
  }
  return lines;
}
