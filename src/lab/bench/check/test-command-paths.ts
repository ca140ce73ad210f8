// Which test files a task's test command runs, read from the command alone (no checkout).

const SEPARATORS = new Set(["&&", "||", ";", "|", "&"]);
/** Options whose value is no test to run (pytest's), when written apart from it (`--deselect tests/a.py::x`). */
const VALUE_OPTIONS = new Set([
  "--ignore",
  "--ignore-glob",
  "--deselect",
  "--rootdir",
  "--confcutdir",
  "--basetemp",
  "--junitxml",
  "-c",
  "-p",
  "-o",
  "-k",
  "-m",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The file, directory and node-id arguments of a test command (`tests/test_a.py`, `tests/`,
 * `tests/test_a.py::test_x`), normalized (no leading `./`, no trailing `/`): words that hold a
 * `/`, end in `.py` or hold `::`, other than the program itself, option values and variable
 * assignments. Empty when the command names none (then it runs whatever it collects).
 */
export function testCommandPaths(testCmd: string): string[] {
  const paths: string[] = [];
  let atProgram = true;
  let skipValue = false;
  for (const word of shellWords(testCmd)) {
    if (SEPARATORS.has(word)) {
      atProgram = true;
      continue;
    }
    if (atProgram) {
      // Variable assignments before the program (`PYTHONWARNINGS=... bin/test`), then the program.
      if (!ASSIGNMENT.test(word)) atProgram = false;
      continue;
    }
    if (skipValue) {
      skipValue = false;
      continue;
    }
    if (word.startsWith("-")) {
      skipValue = VALUE_OPTIONS.has(word);
      continue;
    }
    if (ASSIGNMENT.test(word)) continue;
    if (word.includes("/") || word.includes("::") || /\.pyx?$/.test(word)) paths.push(word.replace(/^(\.\/)+/, "").replace(/\/+$/, ""));
  }
  return paths.filter((path) => path !== "" && path !== ".");
}

/** The file of a pytest node id (`tests/test_a.py::test_x[1]` -> `tests/test_a.py`); undefined for ids of other forms (Django's, SymPy's). */
export function testFileOf(testId: string): string | undefined {
  const at = testId.indexOf("::");
  return at <= 0 ? undefined : testId.slice(0, at).replace(/^(\.\/)+/, "");
}

/**
 * Whether a command with these path arguments runs `testId`: always when it names no paths or
 * the id is no pytest node id; else when a path is the id's file, a directory above it, or a
 * node id the id is, or is inside (`tests/a.py::TestX` runs `tests/a.py::TestX::test_y`).
 */
export function runsTest(paths: readonly string[], testId: string): boolean {
  const file = testFileOf(testId);
  if (paths.length === 0 || file === undefined) return true;
  return paths.some((path) => {
    if (path.includes("::")) return testId === path || testId.startsWith(`${path}::`) || testId.startsWith(`${path}[`);
    return file === path || file.startsWith(`${path}/`);
  });
}

/** The words of a shell command: split at blanks and `;`, `|`, `&`, quotes and backslashes honoured (no expansion). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  const end = (): void => {
    if (started) words.push(word);
    word = "";
    started = false;
  };
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      const stop = close === -1 ? command.length : close;
      word += command.slice(index + 1, stop);
      started = true;
      index = stop;
    } else if (char === '"') {
      let at = index + 1;
      while (at < command.length && command[at] !== '"') {
        if (command[at] === "\\" && at + 1 < command.length) at++;
        word += command[at];
        at++;
      }
      started = true;
      index = at;
    } else if (char === "\\" && index + 1 < command.length) {
      word += command[index + 1];
      started = true;
      index++;
    } else if (/\s/.test(char)) {
      end();
      if (char === "\n") words.push(";");
    } else if (char === ";" || char === "|" || char === "&") {
      end();
      const doubled = command[index + 1] === char && char !== ";";
      words.push(doubled ? char + char : char);
      if (doubled) index++;
    } else {
      word += char;
      started = true;
    }
  }
  end();
  return words;
}
