// What the CLI says for a word that names none of its commands: the problem, and the command a
// slip of the keyboard most likely meant (`opencode-rcm stauts` -> status).

/** The subcommands of each command group (`bench`: run, mini...), for a subcommand typed without its group. */
export type GroupedNames = Readonly<Record<string, readonly string[]>>;

/**
 * The usage problem for `typed`, which is none of `known` (the names at that level; `group` is
 * the command group they belong to, if any): `unknown command "stauts"; did you mean "status"?`.
 * A subcommand typed without its group (`opencode-rcm run`) is pointed to its group (`bench run`).
 */
export function unknownCommandProblem(options: { typed: string; known: readonly string[]; group?: string; grouped?: GroupedNames }): string {
  const { typed, known, group } = options;
  const what = group === undefined ? "command" : `${group} subcommand`;
  const suggestion = suggestCommand({ typed, known, grouped: options.grouped ?? {} });
  const prefix = group === undefined ? "" : `${group} `;
  return `unknown ${what} "${typed}"${suggestion === undefined ? "" : `; did you mean "${prefix}${suggestion}"?`}`;
}

/** The command `typed` most likely meant: a group's subcommand it names exactly, else the nearest known name within a slip's distance. */
export function suggestCommand(options: { typed: string; known: readonly string[]; grouped: GroupedNames }): string | undefined {
  const typed = options.typed.toLowerCase();
  for (const [group, names] of Object.entries(options.grouped)) if (names.includes(typed)) return `${group} ${typed}`;
  const limit = typed.length <= 3 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of options.known) {
    const distance = editDistance(typed, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours ("stauts" -> "status" is 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = distance;
    }
  }
  return at(a.length, b.length);
}
