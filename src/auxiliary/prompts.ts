import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "opencode-rcm";
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

const cache = new Map<string, Promise<string>>();

/**
 * The text of `prompts/<name>.md` in this package (works from `src/` and from `dist/`). Read
 * once per process; a failed read is not cached.
 */
export function loadPrompt(name: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return Promise.reject(new Error(`loadPrompt: invalid prompt name ${JSON.stringify(name)}`));
  let text = cache.get(name);
  if (text === undefined) {
    text = packageRoot().then((root) => readFile(join(root, "prompts", `${name}.md`), "utf8"));
    text.catch(() => cache.delete(name));
    cache.set(name, text);
  }
  return text;
}

/** `template` with every `{{name}}` replaced by `vars[name]`; throws naming any placeholder without a value. */
export function renderPrompt(template: string, vars: Record<string, string>): string {
  const missing = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const key = match[1] ?? "";
    if (!Object.hasOwn(vars, key)) missing.add(key);
  }
  if (missing.size > 0) {
    const names = [...missing].map((key) => `{{${key}}}`).join(", ");
    throw new Error(`renderPrompt: no value for ${names}`);
  }
  // One pass, so a value that itself contains `{{...}}` is inserted as is.
  return template.replace(PLACEHOLDER, (_match, key: string) => vars[key] ?? "");
}

let root: Promise<string> | undefined;

/** The nearest directory above this module whose package.json is named opencode-rcm. */
function packageRoot(): Promise<string> {
  root ??= findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return root;
}

async function findPackageRoot(start: string): Promise<string> {
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await packageNameIn(dir)) === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`loadPrompt: no ${PACKAGE_NAME} package.json above ${start}`);
  }
}

async function packageNameIn(dir: string): Promise<string | undefined> {
  try {
    const manifest: unknown = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    if (typeof manifest === "object" && manifest !== null && "name" in manifest && typeof manifest.name === "string") {
      return manifest.name;
    }
  } catch {
    // No package.json here, or not JSON: keep walking up.
  }
  return undefined;
}
