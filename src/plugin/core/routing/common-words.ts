import { EVERYDAY_WORDS } from "./everyday-words.js";
import { contentWords, GENERIC_WORDS } from "./signals.js";

/**
 * What developers write in every task, whatever it is about, beside everyday English: the
 * subtitle list's blind spots (json, api, config, url are rare in films) and the words of
 * the trade every issue thread uses (reproduce, traceback, changelog, regression).
 */
const DEVELOPER_WORDS = (
  "api apis url urls uri endpoint http https json config configuration env environment variable var param params arg args argument " +
  "flag flags cli command commands terminal console log logs logging logger debug debugging stack trace traceback stacktrace " +
  "exception exceptions error errors warning warnings crash bug bugs issue regression repro reproduce reproducible reproduction " +
  "workaround patch pull commit commits branch merge merged rebase repo repository upstream downstream release version versions " +
  "changelog readme doc docs documentation docstring example examples snippet sample test tests testing unittest pytest spec fixture " +
  "mock ci build builds lint linter format formatting typo refactor cleanup implement implementation implemented feature support " +
  "behavior behaviour default defaults option options setting settings value values return returns returned input output result " +
  "results request requests response responses status code message messages text string str int integer bool boolean float " +
  "number list array dict dictionary map object class method methods function functions func property attribute field fields key " +
  "keys type types typing null nil none undefined true false empty missing invalid valid check checks validate validation handle " +
  "handler callback async await sync promise thread process file files path paths dir directory folder module modules package " +
  "packages library lib dependency dependencies import imports install installed installation update upgrade user username users " +
  "admin account login password token id ids name names data database db table query row column page site web app application " +
  "server client service localhost port host script scripts run runs call calls invoke usage line lines size length count index " +
  "item items element node source src main master latest current previous expected actual unexpected works broken fail fails " +
  "failed failing failure pass passes passed passing post posts comment comments thread reply question answer help docs wiki " +
  "maintainer maintainers contributor contributors pr prs mr review reviewer approve approved ping follow followup update updated"
).split(" ");

/** The developers' words as the router's stems. */
const DEVELOPER_STEMS: ReadonlySet<string> = new Set([...GENERIC_WORDS, ...DEVELOPER_WORDS.flatMap((word) => contentWords(word))]);

/** A word of the trade every task writes ("test", "error", "config"): two of them make no task's phrase. */
export function isDeveloperWord(stem: string): boolean {
  return DEVELOPER_STEMS.has(stem);
}

/**
 * A word anyone writes in any task (everyday English, or developers' own): it may say which
 * task a request is about only beside words that separate tasks, never by itself.
 */
export function isCommonWord(stem: string): boolean {
  return EVERYDAY_WORDS.has(stem) || DEVELOPER_STEMS.has(stem);
}
