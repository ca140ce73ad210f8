import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, which scripts/setup.sh installs; CHROMIUM_BIN overrides. */
const CHROMIUM_PATH = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";

/**
 * Headless Chromium with everything that would phone out turned off (this machine's network is
 * closed, and a report must draw without one), as root without the sandbox.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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
}
