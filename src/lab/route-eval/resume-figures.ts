import { DEFAULT_OPTIONS } from "../../plugin/config/options-schema.js";
import type { EarlierTask } from "../../plugin/core/routing/resume-verdict.js";
import type { Evidence } from "../../plugin/core/routing/task-index.js";
import { taskTitle } from "../../plugin/core/routing/task-title.js";
import type { LabelledSession } from "./labelled-sessions.js";

/**
 * The moment the routed session starts: earlier sessions' `hoursAgo` count back from it, so
 * every run lists the same times.
 */
const SESSION_START = Date.parse("2026-01-05T09:00:00.000Z");

/** Styles that name their task by what only it has: the target for right resumptions is on these. */
const NAMING_STYLES = ["by-file", "by-code-name", "by-phrase", "by-title"] as const;

/** An earlier task a day's session may resume, with the label its writer gave it. */
export interface LabelledEarlierTask {
  label: string;
  task: EarlierTask;
}

/** `<session>/<label>`: the key an earlier task is known by here (and `EarlierTask.key`). */
function earlierKey(session: string, label: string): string {
  return `${session}/${label}`;
}

/**
 * The earlier sessions' unfinished tasks as the plug-in lists them to a new session: one per
 * label not closed, its requests (with what their work touched) as its evidence, its id as
 * that session's router numbered it (`t1` for the first task to appear) and its title as the
 * lexical router titled it from its first request. As the plug-in lists them: the most recently
 * active first, within the default age and count bounds (`resume.maxAgeDays`, `resume.maxTasks`).
 */
export function earlierTasksOf(session: LabelledSession, which: "unfinished" | "closed" = "unfinished"): LabelledEarlierTask[] {
  const tasks: LabelledEarlierTask[] = [];
  for (const earlier of session.earlier ?? []) {
    const closed = new Set(earlier.closed ?? []);
    const labels = [...new Set(earlier.requests.map((request) => request.task))];
    const lastActive = new Date(SESSION_START - earlier.hoursAgo * 3_600_000).toISOString();
    labels.forEach((label, position) => {
      // A closed task is one marked done there: never a candidate, still known (resume-verdict.ts).
      if (closed.has(label) !== (which === "closed")) return;
      const requests = earlier.requests.filter((request) => request.task === label);
      const evidence: Evidence[] = requests.map((request) => ({ text: request.text, ...(request.files?.length ? { paths: request.files } : {}) }));
      tasks.push({
        label,
        task: {
          key: earlierKey(earlier.session, label),
          sessionID: earlier.session,
          taskId: `t${position + 1}`,
          title: taskTitle(requests[0]?.text ?? label),
          sessionTitle: earlier.title,
          lastActive,
          pending: 0,
          evidence,
        },
      });
    });
  }
  const { maxAgeDays, maxTasks } = DEFAULT_OPTIONS.resume;
  const oldest = SESSION_START - maxAgeDays * 86_400_000;
  return tasks
    .sort(
      (a, b) =>
        Date.parse(b.task.lastActive) - Date.parse(a.task.lastActive) ||
        a.task.sessionID.localeCompare(b.task.sessionID) ||
        a.task.taskId.localeCompare(b.task.taskId, "en", { numeric: true }),
    )
    .filter((earlier) => Date.parse(earlier.task.lastActive) >= oldest)
    .slice(0, maxTasks);
}

/** How one request of a session with earlier sessions stands towards their tasks. */
export interface ResumeOutcome {
  /** The unfinished earlier task its gold label is (key), if any. */
  gold?: string;
  /** Gold: the first request of that task in this session (the resumption). */
  opens: boolean;
  /** The earlier task it resumed, if any. */
  resumed?: string;
  /** The earlier task offered instead (nothing brought in), if any. */
  offered?: string;
  /** The resumption rules' reason for a resumption or an offer. */
  why?: string;
  /** Not asked: the session's own routing was sure the request belongs to this task of its own (or to every task). */
  sureOf?: string;
}

/** Counts over a set of requests of sessions with earlier sessions. */
export interface ResumeCounts {
  n: number;
  /** Gold resumptions: first requests of an unfinished earlier task. */
  resumptions: number;
  /** Of them, resumed that task. */
  resumedRight: number;
  /** Requests that resumed the right task after its first request (missed there, taken up later). */
  resumedLate: number;
  /** Resumptions at a request whose gold is another task (another earlier one, or new work): the harmful case. */
  resumedWrong: number;
  /** Gold resumptions where nothing was resumed (the full history of the session kept, nothing brought in)... */
  missed: number;
  /** ...of which the right task was offered... */
  missedOffered: number;
  /** ...and of which the resumption rules were never asked: the session's own routing was sure the request was one of its tasks'. */
  missedSure: number;
  /** Offers of a task the request's gold is not. */
  offeredWrong: number;
  /** resumedRight / resumptions. */
  rightRate: number;
  /** resumedWrong / n. */
  wrongRate: number;
}

export interface ResumeFigures extends ResumeCounts {
  /** Days (sessions with earlier sessions) and the unfinished earlier tasks they offered as candidates. */
  days: number;
  candidates: number;
  /** Resumed right of the gold resumptions whose request names its task (by file, code name, phrase or title). */
  rightWhenNamed: { resumptions: number; resumedRight: number; rate: number };
  /** Per style and per register, in the order they first occur. */
  byStyle: (ResumeCounts & { style: string })[];
  byRegister: (ResumeCounts & { register: string; rightWhenNamed: number })[];
  /** The register with the most wrong resumptions per request, and the one with the lowest right-when-named. */
  worstRegister: { wrong: string; rightWhenNamed: string } | undefined;
}

/** A request's outcome with what the figures group it by. */
export interface ResumeScored {
  style?: string;
  register?: string;
  resume: ResumeOutcome;
}

export function resumeCountsOf(outcomes: readonly ResumeOutcome[]): ResumeCounts {
  const resumptions = outcomes.filter((outcome) => outcome.gold !== undefined && outcome.opens);
  const resumedRight = resumptions.filter((outcome) => outcome.resumed === outcome.gold).length;
  const missed = resumptions.filter((outcome) => outcome.resumed === undefined);
  const resumedWrong = outcomes.filter((outcome) => outcome.resumed !== undefined && outcome.resumed !== outcome.gold).length;
  return {
    n: outcomes.length,
    resumptions: resumptions.length,
    resumedRight,
    resumedLate: outcomes.filter((outcome) => !outcome.opens && outcome.resumed !== undefined && outcome.resumed === outcome.gold).length,
    resumedWrong,
    missed: missed.length,
    missedOffered: missed.filter((outcome) => outcome.offered === outcome.gold).length,
    missedSure: missed.filter((outcome) => outcome.sureOf !== undefined).length,
    offeredWrong: outcomes.filter((outcome) => outcome.offered !== undefined && outcome.offered !== outcome.gold).length,
    rightRate: ratio(resumedRight, resumptions.length),
    wrongRate: ratio(resumedWrong, outcomes.length),
  };
}

function rightWhenNamedOf(requests: readonly ResumeScored[]): ResumeFigures["rightWhenNamed"] {
  const named = requests.filter(
    (request) => request.resume.gold !== undefined && request.resume.opens && (NAMING_STYLES as readonly string[]).includes(request.style ?? ""),
  );
  const right = named.filter((request) => request.resume.resumed === request.resume.gold).length;
  return { resumptions: named.length, resumedRight: right, rate: ratio(right, named.length) };
}

/** The figures over every request of the sessions that list earlier sessions; undefined when none does. */
export function resumeFiguresOf(requests: readonly ResumeScored[], days: number, candidates: number): ResumeFigures | undefined {
  if (days === 0) return undefined;
  const groups = (keyOf: (request: ResumeScored) => string | undefined) =>
    [...new Set(requests.flatMap((request) => keyOf(request) ?? []))].map((key) => ({ key, subset: requests.filter((request) => keyOf(request) === key) }));
  const byRegister = groups((request) => request.register).map(({ key, subset }) => ({
    register: key,
    ...resumeCountsOf(subset.map((request) => request.resume)),
    rightWhenNamed: rightWhenNamedOf(subset).rate,
  }));
  const worst = <T>(items: readonly T[], worse: (a: T, b: T) => boolean) =>
    items.reduce<T | undefined>((found, item) => (found === undefined || worse(item, found) ? item : found), undefined);
  const wrong = worst(byRegister, (a, b) => a.wrongRate > b.wrongRate);
  const unnamed = worst(byRegister, (a, b) => a.rightWhenNamed < b.rightWhenNamed);
  return {
    days,
    candidates,
    ...resumeCountsOf(requests.map((request) => request.resume)),
    rightWhenNamed: rightWhenNamedOf(requests),
    byStyle: groups((request) => request.style).map(({ key, subset }) => ({ style: key, ...resumeCountsOf(subset.map((request) => request.resume)) })),
    byRegister,
    worstRegister: wrong && unnamed ? { wrong: wrong.register, rightWhenNamed: unnamed.register } : undefined,
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}
