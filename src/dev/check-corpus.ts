import { type LabelledSession, type SessionsFile, SHARED_LABEL, shapeOf } from "../lab/route-eval/labelled-sessions.js";

/** One split of a routing corpus (`train`, `dev`, `test`) and the files it was read from. */
export interface CorpusSplit {
  name: string;
  files: readonly SessionsFile[];
}

interface SplitStats {
  name: string;
  sessions: number;
  requests: number;
  repos: string[];
  shapes: { switch: { sessions: number; requests: number }; everyday: { sessions: number; requests: number } };
  shared: number;
}

export interface CorpusCheck {
  /** Each names the file, the session and what is wrong; empty when the corpus is sound. */
  problems: string[];
  splits: SplitStats[];
}

/**
 * Checks the rules a routing corpus is written to: every session names its repository, its
 * shape and the public threads it paraphrases; `switch` sessions put each task's own checkout
 * path in every request; `everyday` sessions never do; shared instructions touch no files;
 * and no repository appears in two splits (the splits are by repository).
 */
export function checkCorpus(splits: readonly CorpusSplit[]): CorpusCheck {
  const problems: string[] = [];
  const repoSplit = new Map<string, string>();
  const stats = splits.map((split) => {
    const result: SplitStats = {
      name: split.name,
      sessions: 0,
      requests: 0,
      repos: [],
      shapes: { switch: { sessions: 0, requests: 0 }, everyday: { sessions: 0, requests: 0 } },
      shared: 0,
    };
    const repos = new Set<string>();
    for (const { file, sessions } of split.files) {
      for (const session of sessions) {
        const where = `${file}: session ${session.id}`;
        problems.push(...checkSession(session).map((problem) => `${where}: ${problem}`));
        if (session.repo) {
          repos.add(session.repo);
          const other = repoSplit.get(session.repo);
          if (other !== undefined && other !== split.name) problems.push(`${where}: repo ${session.repo} is also in split ${other}`);
          repoSplit.set(session.repo, split.name);
        }
        const shape = shapeOf(session);
        result.sessions += 1;
        result.requests += session.requests.length;
        result.shapes[shape].sessions += 1;
        result.shapes[shape].requests += session.requests.length;
        result.shared += session.requests.filter((request) => request.task === SHARED_LABEL).length;
      }
    }
    result.repos = [...repos].sort();
    return result;
  });
  return { problems, splits: stats };
}

function checkSession(session: LabelledSession): string[] {
  const problems: string[] = [];
  if (!session.repo) problems.push("repo: missing (owner/name of the repository it was written from)");
  if (!session.shape) problems.push('shape: missing ("switch" or "everyday")');
  if (!session.sources || session.sources.length === 0) problems.push("sources: missing (the thread addresses it paraphrases)");
  for (const source of session.sources ?? []) {
    if (session.repo && !source.toLowerCase().startsWith(`https://github.com/${session.repo.toLowerCase()}/`)) {
      problems.push(`sources: ${source} is not a thread of ${session.repo}`);
    }
  }
  const tasks = new Set(session.requests.filter((request) => request.task !== SHARED_LABEL).map((request) => request.task));
  if (tasks.size < 2) problems.push(`has ${tasks.size} task(s); a routing session needs at least 2`);
  if (session.requests[0]?.task === SHARED_LABEL) problems.push("requests.0: a shared instruction cannot open the session");
  const workspaceOf = new Map<string, string>();
  session.requests.forEach((request, index) => {
    const at = `requests.${index}`;
    if (request.task === SHARED_LABEL) {
      if (request.files && request.files.length > 0) problems.push(`${at}: a shared instruction touches no files`);
      return;
    }
    if (session.shape === "switch") {
      if (!request.workspace) problems.push(`${at}.workspace: missing in a switch session`);
      else if (!request.text.includes(request.workspace)) problems.push(`${at}.text: does not name its workspace ${request.workspace}`);
      else {
        const known = workspaceOf.get(request.task);
        if (known !== undefined && known !== request.workspace) problems.push(`${at}.workspace: task ${request.task} moved from ${known}`);
        workspaceOf.set(request.task, request.workspace);
      }
    }
    if (session.shape === "everyday" && request.workspace && request.text.includes(request.workspace)) {
      problems.push(`${at}.text: names the workspace path in an everyday session`);
    }
  });
  if (session.shape === "switch") {
    const owners = new Map<string, string>();
    for (const [task, workspace] of workspaceOf) {
      const other = owners.get(workspace);
      if (other !== undefined) problems.push(`tasks ${other} and ${task} share the checkout ${workspace}`);
      owners.set(workspace, task);
    }
  }
  return problems;
}
