/** How a generated request is written: 4 openings, 7 follow-ups and the shared rule. */
export const GENERATED_STYLES = [
  "issue-open",
  "chat-open",
  "explicit-new",
  "uncued-new",
  "exact-file",
  "task-nouns",
  "reviewer-note",
  "terse-nudge",
  "bare-continuation",
  "pasted-log",
  "switch-back",
  "shared-rule",
] as const;

export type GeneratedStyle = (typeof GENERATED_STYLES)[number];
