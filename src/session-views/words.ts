/** Small pieces of the words the plug-in speaks to a person: one way to say each thing everywhere. */

/** A confidence as a person reads it: "92%". Whole percents: a toast never wraps inside one. */
export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** A text cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "1 request", "3 requests". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A token count rounded for reading: "~850", "~12.3k". */
export function tokens(count: number): string {
  return count < 1000 ? `~${count}` : `~${(count / 1000).toFixed(count < 100_000 ? 1 : 0)}k`;
}
