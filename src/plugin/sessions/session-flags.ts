/** Per-session runtime flags; never shared between sessions. */
export interface SessionFlags {
  /** The compacting hook fired: the next transform call is on the compaction clone. */
  markCompactionClone(sessionID: string): void;
  /** True once after markCompactionClone, then false again. */
  takeCompactionClone(sessionID: string): boolean;
}

export function createSessionFlags(): SessionFlags {
  const compacting = new Set<string>();
  return {
    markCompactionClone: (sessionID) => void compacting.add(sessionID),
    takeCompactionClone: (sessionID) => compacting.delete(sessionID),
  };
}
