import { escapeHtml, fixed } from "../svg/svg-kit.js";
import type { Reliability } from "./reliability.js";

const WIDTH = 640;
const HEIGHT = 460;
const PLOT = { left: 64, top: 56, size: 300 } as const;
const HISTOGRAM = { top: PLOT.top + PLOT.size + 34, height: 44 } as const;

/**
 * A reliability diagram as a standalone SVG: for each confidence bin, a bar up to the
 * share of decisions that were right, drawn against the diagonal of perfect calibration,
 * with the bin's count above it and a histogram of counts underneath. Deterministic text.
 */
export function renderReliabilitySvg(options: { reliability: Reliability; title: string; threshold: number }): string {
  const { reliability, title, threshold } = options;
  const x = (value: number) => PLOT.left + value * PLOT.size;
  const y = (value: number) => PLOT.top + (1 - value) * PLOT.size;
  const total = reliability.bins.reduce((sum, bin) => sum + bin.count, 0);
  const maxCount = Math.max(1, ...reliability.bins.map((bin) => bin.count));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeHtml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="22" font-size="14" font-weight="bold">${escapeHtml(title)}</text>`,
    `<text x="${PLOT.left}" y="40">${total} decisions; expected calibration error ${reliability.expectedCalibrationError.toFixed(3)}; threshold ${threshold}</text>`,
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.size}" height="${PLOT.size}" fill="#fafafa" stroke="#888"/>`,
  ];
  for (let tick = 0; tick <= 10; tick += 2) {
    const value = tick / 10;
    parts.push(
      `<line x1="${fixed(x(value))}" y1="${PLOT.top + PLOT.size}" x2="${fixed(x(value))}" y2="${PLOT.top + PLOT.size + 4}" stroke="#888"/>`,
      `<text x="${fixed(x(value))}" y="${PLOT.top + PLOT.size + 16}" text-anchor="middle">${value.toFixed(1)}</text>`,
      `<line x1="${PLOT.left - 4}" y1="${fixed(y(value))}" x2="${PLOT.left}" y2="${fixed(y(value))}" stroke="#888"/>`,
      `<text x="${PLOT.left - 8}" y="${fixed(y(value) + 4)}" text-anchor="end">${value.toFixed(1)}</text>`,
    );
  }
  parts.push(
    `<text x="${PLOT.left + PLOT.size / 2}" y="${HISTOGRAM.top + HISTOGRAM.height + 26}" text-anchor="middle">confidence</text>`,
    `<text x="18" y="${PLOT.top + PLOT.size / 2}" text-anchor="middle" transform="rotate(-90 18 ${PLOT.top + PLOT.size / 2})">share right</text>`,
    `<line x1="${fixed(x(threshold))}" y1="${PLOT.top}" x2="${fixed(x(threshold))}" y2="${PLOT.top + PLOT.size}" stroke="#c0392b" stroke-dasharray="4 3"/>`,
  );
  for (const bin of reliability.bins) {
    if (bin.count === 0) continue;
    const left = x(bin.from) + 2;
    const width = x(bin.to) - x(bin.from) - 4;
    const gap = Math.abs(bin.accuracy - bin.confidence);
    const fill = gap <= 0.05 ? "#2e86c1" : gap <= 0.15 ? "#f39c12" : "#c0392b";
    parts.push(
      `<rect class="bin" x="${fixed(left)}" y="${fixed(y(bin.accuracy))}" width="${fixed(width)}" height="${fixed(y(0) - y(bin.accuracy))}" fill="${fill}" fill-opacity="0.8">` +
        `<title>confidence ${bin.from.toFixed(1)}-${bin.to.toFixed(1)}: ${bin.count} decisions, mean confidence ${bin.confidence.toFixed(3)}, right ${bin.accuracy.toFixed(3)}</title></rect>`,
      `<circle cx="${fixed(x(bin.confidence))}" cy="${fixed(y(bin.confidence))}" r="2.5" fill="#333"/>`,
      `<text x="${fixed(left + width / 2)}" y="${fixed(Math.max(PLOT.top + 10, y(bin.accuracy) - 4))}" text-anchor="middle">${bin.count}</text>`,
    );
    const barHeight = (bin.count / maxCount) * HISTOGRAM.height;
    parts.push(
      `<rect class="count" x="${fixed(left)}" y="${fixed(HISTOGRAM.top + HISTOGRAM.height - barHeight)}" width="${fixed(width)}" height="${fixed(barHeight)}" fill="#7f8c8d"/>`,
    );
  }
  parts.push(
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#333" stroke-dasharray="2 2"/>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 12}">bar: share right per bin</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 28}">dot: mean confidence</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 44}">dashed: perfect calibration</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 60}" fill="#c0392b">red dashes: threshold</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 84}">colour: |right - confidence|</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 100}" fill="#2e86c1">&lt;= 0.05</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 116}" fill="#f39c12">&lt;= 0.15</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${PLOT.top + 132}" fill="#c0392b">&gt; 0.15</text>`,
    `<text x="${PLOT.left + PLOT.size + 14}" y="${HISTOGRAM.top + 12}">decisions per bin</text>`,
    "</svg>",
  );
  return `${parts.join("\n")}\n`;
}
