/** The plug-in's modes, in the order the reports and the help list them. */
export const MODES = ["native", "router", "memory", "full"] as const;
export type Mode = (typeof MODES)[number];

/** What a mode does: the one place a mode turns into behaviour. */
export interface ModeParts {
  /** Requests are routed to tasks (a ledger is kept). */
  routes: boolean;
  /** A model call gets only its task's history (when the routing is sure). */
  narrows: boolean;
  /** Tasks get memory records that stand in for the exchanges they cover. */
  remembers: boolean;
}

const PARTS: Readonly<Record<Mode, ModeParts>> = {
  native: { routes: false, narrows: false, remembers: false },
  router: { routes: true, narrows: true, remembers: false },
  memory: { routes: true, narrows: false, remembers: true },
  full: { routes: true, narrows: true, remembers: true },
};

export function modeParts(mode: Mode): ModeParts {
  return PARTS[mode];
}

/** Mode memory: routed, but every task stays in view (records stand in for what they cover). */
export function keepsEveryTask(mode: Mode): boolean {
  const { routes, narrows } = PARTS[mode];
  return routes && !narrows;
}
