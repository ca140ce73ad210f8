/** The files a unified diff (git format) changes, in order of appearance, without duplicates. */
export function patchFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const match of patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) {
    const after = match[2] ?? "";
    const before = match[1] ?? "";
    files.add(after === "/dev/null" ? before : after);
  }
  if (files.size === 0) {
    for (const match of patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (match[1] && match[1] !== "/dev/null") files.add(match[1]);
  }
  return [...files];
}
