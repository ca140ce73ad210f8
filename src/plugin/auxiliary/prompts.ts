import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../kit/package-root.js";

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
    text = Promise.resolve().then(() => readFile(join(packageRoot(), "prompts", `${name}.md`), "utf8"));
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
