import type { SeededRandom } from "./seeded-random.js";
import { type Head, type Qualifier, VOCABULARY } from "./vocabulary.js";

type TaskLanguage = "python" | "go" | "typescript" | "rust" | "java" | "ruby" | "markdown";

/** One generated task: a component, its own key nouns, files and symbols. */
export interface SyntheticTask {
  /** Gold label, the component in kebab case (`invoice-exporter`). */
  label: string;
  /** `invoice exporter` */
  component: string;
  qualifier: string;
  head: string;
  /** 2-3 nouns of the task's own (`currency`, `row`). */
  keys: string[];
  /** 1-3 repository paths, the main one first. */
  files: string[];
  /** 1-2 function/class names; for a docs task, section titles. */
  symbols: string[];
  language: TaskLanguage;
  kind: "code" | "docs";
}

const CODE_LANGUAGES = ["python", "go", "typescript", "rust", "java", "ruby"] as const;

const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Draws a task none of whose distinctive words (component words, key nouns) is in `used`,
 * and adds its words to `used`. `want` asks for a documentation task or a given head noun
 * ("parser"), when that head is still free.
 */
export function drawTask(random: SeededRandom, used: Set<string>, want = "code"): SyntheticTask {
  const docs = want === "docs";
  const wanted = VOCABULARY.heads.find((head) => head.word === want && !used.has(head.word));
  for (;;) {
    const qualifier: Qualifier = random.pick(VOCABULARY.qualifiers);
    const head: Head = wanted ?? random.pick(docs ? VOCABULARY.docsHeads : VOCABULARY.heads);
    if (used.has(qualifier.word) || used.has(head.word)) continue;
    const free = (words: readonly string[]) => words.filter((word) => !used.has(word) && word !== qualifier.word && word !== head.word);
    const keys = [...random.sample(free(qualifier.keys), random.int(1, 2)), ...random.sample(free(head.keys), 1)];
    if (keys.length < 2 || new Set(keys).size !== keys.length) continue;
    for (const word of [qualifier.word, head.word, ...keys]) used.add(word);
    const language: TaskLanguage = docs ? "markdown" : random.pick(CODE_LANGUAGES);
    return {
      label: `${qualifier.word}-${head.word}`,
      component: `${qualifier.word} ${head.word}`,
      qualifier: qualifier.word,
      head: head.word,
      keys,
      files: filesOf(random, language, qualifier, head.word, keys[0] as string),
      symbols: symbolsOf(random, language, qualifier.word, head),
      language,
      kind: docs ? "docs" : "code",
    };
  }
}

function filesOf(random: SeededRandom, language: TaskLanguage, qualifier: Qualifier, head: string, key: string): string[] {
  const { word: q, area } = qualifier;
  const snake = `${q}_${head}`;
  const kebab = `${q}-${head}`;
  const type = pascal(q) + pascal(head);
  const layouts: Record<TaskLanguage, () => string[]> = {
    python: () => [
      random.pick([`src/${area}/${snake}.py`, `${area}/${snake}.py`, `app/${area}/${snake}.py`]),
      `tests/test_${snake}.py`,
      `tests/fixtures/${q}_${key}.json`,
    ],
    go: () =>
      random.chance(0.5)
        ? [`internal/${q}/${head}.go`, `internal/${q}/${head}_test.go`, `internal/${q}/testdata/${key}.golden`]
        : [`pkg/${area}/${snake}.go`, `pkg/${area}/${snake}_test.go`, `pkg/${area}/testdata/${q}_${key}.golden`],
    typescript: () =>
      random.chance(0.5)
        ? [`src/${area}/${kebab}.ts`, `test/${kebab}.test.ts`, `test/fixtures/${q}-${key}.json`]
        : [`src/components/${type}.tsx`, `src/components/__tests__/${type}.test.tsx`, `src/components/${type}.module.css`],
    rust: () =>
      random.chance(0.5)
        ? [`src/${area}/${snake}.rs`, `tests/${snake}_test.rs`, `tests/data/${q}_${key}.toml`]
        : [`crates/${q}/src/${head}.rs`, `crates/${q}/tests/${head}_test.rs`, `crates/${q}/Cargo.toml`],
    java: () => [`src/main/java/com/acme/${area}/${type}.java`, `src/test/java/com/acme/${area}/${type}Test.java`, `src/test/resources/${q}-${key}.json`],
    ruby: () => [`lib/${area}/${snake}.rb`, `spec/${area}/${snake}_spec.rb`, `spec/fixtures/${q}_${key}.yml`],
    markdown: () => [random.pick([`docs/${kebab}.md`, `docs/${area}/${kebab}.md`]), "README.md", `docs/${area}/${q}-examples.md`],
  };
  const [main, second, third] = layouts[language]();
  const count = random.weighted([
    [1, 3],
    [2, 5],
    [3, 2],
  ] as const);
  return [main, second, third].slice(0, count).filter((file): file is string => file !== undefined);
}

function symbolsOf(random: SeededRandom, language: TaskLanguage, q: string, head: Head): string[] {
  const type = pascal(q) + pascal(head.word);
  const snake = `${head.verb}_${q}`;
  const camel = `${head.verb}${pascal(q)}`;
  const functions: Record<TaskLanguage, string> = {
    python: snake,
    go: pascal(camel),
    typescript: camel,
    rust: snake,
    java: camel,
    ruby: snake,
    markdown: `${pascal(q)} troubleshooting`,
  };
  const types = language === "markdown" ? `${pascal(q)} setup` : type;
  return random
    .weighted([
      [[types, functions[language]], 5],
      [[functions[language]], 2],
      [[types], 2],
    ] as const)
    .slice();
}
