// A screenshot of a run's report.html in headless Chromium (Debian's, as the tests use):
//   node scripts/screenshot-report.mjs runs/switch-mini docs/report-mini.png
// Shoots the page down to the end of the first opened session, at 1280 px wide.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [run, out] = process.argv.slice(2);
if (!run || !out) {
  console.error("usage: node scripts/screenshot-report.mjs <run dir> <out.png>");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(resolve(run, "report.html")).href);
  const bottom = await page.evaluate("Math.ceil(document.querySelector('details[open]').getBoundingClientRect().bottom + window.scrollY + 16)");
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1280, height: bottom } });
  console.log(`${out}: 1280 x ${bottom}`);
} finally {
  await browser.close();
}
