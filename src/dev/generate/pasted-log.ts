import type { SyntheticTask } from "./draw-task.js";
import type { SeededRandom } from "./seeded-random.js";

const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const dirname = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".");
const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A pasted traceback, failing test output or compiler error (5-15 lines) in the task's
 * language, whose frames name the task's main file and one of its symbols.
 */
export function pastedLog(random: SeededRandom, task: SyntheticTask): string {
  const main = task.files[0] as string;
  const test = task.files[1];
  const symbol = random.pick(task.symbols);
  const key = random.pick(task.keys);
  const line = () => random.int(12, 340);
  const column = () => random.int(3, 40);
  switch (task.language) {
    case "python": {
      const [raise, error] = random.pick([
        ['raise ValueError(f"invalid {name}: {value!r}")', `ValueError: invalid ${key}: ''`],
        ["return lookup[name]", `KeyError: '${key}'`],
        ["if value < minimum:", "TypeError: '<' not supported between instances of 'NoneType' and 'int'"],
      ] as const);
      return [
        "=================================== FAILURES ===================================",
        `______________________________ test_${key}_roundtrip ______________________________`,
        "Traceback (most recent call last):",
        ...(test?.endsWith(".py") ? [`  File "/app/${test}", line ${line()}, in test_${key}_roundtrip`, `    result = ${symbol}(sample_input)`] : []),
        `  File "/app/${main}", line ${line()}, in ${symbol}`,
        `    return _coerce(data["${key}"])`,
        `  File "/app/${main}", line ${line()}, in _coerce`,
        `    ${raise}`,
        error,
        `========================= 1 failed, ${random.int(8, 90)} passed in 0.${random.int(11, 98)}s =========================`,
      ].join("\n");
    }
    case "go": {
      const pkg = `github.com/acme/app/${dirname(main)}`;
      const fn = /^[A-Z]/.test(symbol) ? symbol : pascal(symbol);
      return random.chance(0.5)
        ? [
            `=== RUN   Test${fn}`,
            `--- FAIL: Test${fn} (0.00s)`,
            `    ${basename(test ?? main)}:${line()}: ${fn}() returned error: invalid ${key} "", want nil`,
            `    ${basename(test ?? main)}:${line()}: got 0, want ${random.int(2, 9)}`,
            "FAIL",
            `FAIL\t${pkg}\t0.0${random.int(10, 99)}s`,
            "FAIL",
          ].join("\n")
        : [
            "panic: runtime error: invalid memory address or nil pointer dereference",
            `[signal SIGSEGV: code=0x1 addr=0x18 pc=0x4f${random.int(1000, 9999)}]`,
            "",
            "goroutine 7 [running]:",
            `${pkg}.${fn}(0x0, 0xc0001a2b40)`,
            `\t/src/${main}:${line()} +0x3c`,
            `${pkg}.Test${fn}(0xc0000a6b60)`,
            `\t/src/${test ?? main}:${line()} +0x55`,
            "exit status 2",
          ].join("\n");
    }
    case "typescript": {
      const at = `${main}:${line()}:${column()}`;
      return random.chance(0.5)
        ? [
            ` FAIL  ${test ?? main} > ${symbol} > keeps the ${key}`,
            `AssertionError: expected undefined to deeply equal { ${key}: 'x' }`,
            ` ❯ ${symbol} ${at}`,
            ...(test ? [` ❯ ${test}:${line()}:${column()}`] : []),
            "",
            ` Test Files  1 failed | ${random.int(5, 40)} passed`,
            `      Tests  1 failed | ${random.int(40, 400)} passed`,
          ].join("\n")
        : [
            `${at} - error TS2322: Type 'string | undefined' is not assignable to type 'string'.`,
            "",
            `  const ${key}: string = options.${key};`,
            `        ${"~".repeat(key.length)}`,
            "",
            `${main}:${line()}:${column()} - error TS2554: Expected 2 arguments, but got 1 (in ${symbol}).`,
            "",
            `Found 2 errors in the same file, starting at: ${main}`,
          ].join("\n");
    }
    case "rust": {
      const call = /^[A-Z]/.test(symbol) ? `${symbol}::new(&input)` : `${symbol}(&input)`;
      const n = line();
      return random.chance(0.5)
        ? [
            "error[E0308]: mismatched types",
            `  --> ${main}:${n}:${column()}`,
            "   |",
            `${n} |     let ${key}: u32 = ${call}?;`,
            "   |                 ^^^ expected `u32`, found `Option<u32>`",
            "   |",
            "For more information about this error, try `rustc --explain E0308`.",
            "error: could not compile `app` (lib) due to 1 previous error",
          ].join("\n")
        : [
            "running 15 tests",
            `thread '${key}_roundtrip' panicked at ${main}:${n}:${column()}:`,
            `called \`Option::unwrap()\` on a \`None\` value (in ${symbol})`,
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "",
            "failures:",
            `    ${key}_roundtrip`,
            "",
            "test result: FAILED. 14 passed; 1 failed; 0 ignored; 0 measured",
          ].join("\n");
    }
    case "java": {
      const type = basename(main).replace(/\.java$/, "");
      const pkg = dirname(main)
        .replace(/^src\/main\/java\//, "")
        .replaceAll("/", ".");
      const method = /^[A-Z]/.test(symbol) ? "<init>" : symbol;
      return [
        `[ERROR] Tests run: ${random.int(6, 40)}, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.${random.int(100, 999)} s`,
        `[ERROR] keeps${pascal(key)}  Time elapsed: 0.01 s  <<< ERROR!`,
        `java.lang.NullPointerException: Cannot invoke "String.trim()" because "${key}" is null`,
        `\tat ${pkg}.${type}.${method}(${type}.java:${line()})`,
        `\tat ${pkg}.${type}Test.keeps${pascal(key)}(${type}Test.java:${line()})`,
        "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
      ].join("\n");
    }
    case "ruby": {
      const type = symbol.match(/^[A-Z]/) ? symbol : pascal(task.qualifier) + pascal(task.head);
      const fn = /^[A-Z]/.test(symbol) ? "initialize" : symbol;
      return [
        "Failures:",
        "",
        `  1) ${type}#${fn} keeps the ${key}`,
        `     Failure/Error: ${key} = input.fetch(:${key})`,
        "",
        "     KeyError:",
        `       key not found: :${key}`,
        `     # ./${main}:${line()}:in \`${fn}'`,
        ...(test ? [`     # ./${test}:${line()}:in \`block (2 levels) in <top (required)>'`] : []),
        "",
        `Finished in 0.${random.int(10, 99)} seconds`,
        `${random.int(8, 60)} examples, 1 failure`,
      ].join("\n");
    }
    case "markdown": {
      const anchor = symbol.toLowerCase().replaceAll(" ", "-");
      return random.chance(0.5)
        ? [
            `${main}:${line()}:81 MD013/line-length Line length [Expected: 80; Actual: ${random.int(90, 180)}]`,
            `${main}:${line()} MD040/fenced-code-language Fenced code blocks should have a language specified`,
            `${main}:${line()}:1 MD009/no-trailing-spaces Trailing spaces [Expected: 0 or 2; Actual: 1]`,
            `${main}:${line()} MD034/no-bare-urls Bare URL used [Context: "https://example.com/${key}"]`,
            `${main}:${line()} MD012/no-multiple-blanks Multiple consecutive blank lines [Expected: 1; Actual: 2]`,
          ].join("\n")
        : [
            `[${main}]:`,
            `  ✗ [404] https://example.com/docs/${key} | Failed: Network error: Not Found`,
            `  ✗ [ERR] ${main}#${anchor} | Cannot find fragment`,
            "  ✓ [200] https://example.com/install",
            "",
            `🔍 ${random.int(20, 80)} Total ✅ ${random.int(18, 78)} OK 🚫 2 Errors`,
          ].join("\n");
    }
  }
}
