/** How `clip` marks a cut. */
export interface ClipOptions {
  /** What stands for the cut-off rest: "…" unless given ("..." where the text stays ASCII). */
  readonly ellipsis?: string;
  /**
   * Whether `max` counts the ellipsis: "counted" (the default) keeps the clipped text,
   * ellipsis and all, within `max` characters; "extra" keeps the first `max` characters
   * and adds the ellipsis after them.
   */
  readonly ellipsisIs?: "counted" | "extra";
}

/**
 * The text as it is when it has at most `max` characters, else its start with an ellipsis
 * ("Fix the par…"). It cuts where the count says, not at a word, and does not trim.
 * Here in core so that core and everything above it clip alike.
 */
export function clip(text: string, max: number, { ellipsis = "…", ellipsisIs = "counted" }: ClipOptions = {}): string {
  if (text.length <= max) return text;
  return `${text.slice(0, ellipsisIs === "counted" ? max - ellipsis.length : max)}${ellipsis}`;
}
