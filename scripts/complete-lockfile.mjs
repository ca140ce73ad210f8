// The npm registry mirror on our build machines does not serve packages built for other
// platforms (opencode-darwin-arm64, napi-windows-...), so `npm install` leaves them out
// of package-lock.json and `npm ci` then refuses the lockfile as out of sync. This adds
// the missing optional entries, with the platform they are for, so that `npm ci` skips
// them on machines they do not fit. Run after any `npm install` that changes the lock.
import { readFileSync, writeFileSync } from "node:fs";

const FILE = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(FILE, "utf8"));
const OS = { darwin: "darwin", linux: "linux", windows: "win32", win32: "win32" };
const CPU = ["arm64", "x64", "ia32"];

function platformOf(name) {
  const words = name.split("-");
  const os = words.map((word) => OS[word]).find(Boolean);
  const cpu = words.find((word) => CPU.includes(word));
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (lock.packages[target] || lock.packages[`${path}/${target}`]) continue;
    lock.packages[target] = {
      version: range.replace(/^[~^]/, ""),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional entries`);
