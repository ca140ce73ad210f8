/**
 * A file as a record shows it: relative to the project's root (`/tmp/t5/proj/src/a.js` and
 * `t5/proj/src/a.js` under the root `/tmp/t5/proj` are `src/a.js`); a path outside it, or
 * with no root known, as given (without a leading `./`).
 */
export function projectPath(path: string, root: string | undefined): string {
  const plain = path.trim().replace(/^\.\//, "");
  if (root === undefined || !root.startsWith("/") || root === "/") return plain;
  const base = `${root.replace(/\/+$/, "")}/`;
  if (plain.startsWith("/")) return plain.startsWith(base) && plain.length > base.length ? plain.slice(base.length) : plain;
  const tail = rootTails(base).find((candidate) => plain.startsWith(candidate) && plain.length > candidate.length);
  return tail ? plain.slice(tail.length) : plain;
}

/** "t5/proj/", "proj/" for the root /tmp/t5/proj/: the root's last folders, longest first. */
function rootTails(base: string): string[] {
  const segments = base.split("/").filter((segment) => segment !== "");
  return segments.map((_, start) => `${segments.slice(start).join("/")}/`);
}
