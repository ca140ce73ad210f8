import { groupsAfter, type InteractionGroup, toInteractionGroups } from "../core/interaction-groups.js";
import type { MessageWithParts } from "../core/messages.js";
import type { GroupsMemo, LiveSession } from "../sessions/live-session.js";

/**
 * A session's groups at each model call, grouping only what changed since its last call. The
 * host hands the whole history again at every call (OpenCode re-reads it: new objects, same
 * ids), and a finished message never changes what it says about its group; so the groups that
 * hold only finished messages of the same ids at the same positions are taken as they were, and
 * the rest is grouped anew after them (`groupsAfter`). A turn that went on in an earlier group,
 * a history cut or rewritten before them: grouped from scratch. The groups are exactly those of
 * `toInteractionGroups(messages)`. The memo is kept on the session (`LiveSession.groups`).
 */
export function cachedGroups(session: Pick<LiveSession, "groups">, messages: readonly MessageWithParts[]): InteractionGroup[] {
  const memo = session.groups;
  const groups = (memo && reusing(memo, messages)) ?? toInteractionGroups(messages);
  session.groups = { ...idsOf(messages), groups };
  return groups;
}

/** The groups of `messages`, reusing the memo's leading groups; undefined when they cannot be reused. */
function reusing(memo: GroupsMemo, messages: readonly MessageWithParts[]): InteractionGroup[] | undefined {
  const limit = Math.min(memo.stableBefore, messages.length);
  let same = 0;
  while (same < limit && messages[same]?.info.id === memo.ids[same]) same += 1;
  // The leading groups that lie wholly among those messages; the next group's first message bounds what they hold.
  let kept = 0;
  while (kept < memo.groups.length && (memo.groups[kept]?.indices.at(-1) ?? same) < same) kept += 1;
  if (kept === 0) return undefined;
  const next = memo.groups[kept]?.indices[0];
  const start = next === undefined ? same : Math.min(same, next);
  return groupsAfter(messages, start, memo.groups.slice(0, kept));
}

function idsOf(messages: readonly MessageWithParts[]): Pick<GroupsMemo, "ids" | "stableBefore"> {
  const ids: string[] = new Array(messages.length);
  let stableBefore = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const { info } = messages[index] as MessageWithParts;
    ids[index] = info.id;
    if (stableBefore === -1 && info.role === "assistant" && info.time.completed === undefined) stableBefore = index;
  }
  return { ids, stableBefore: stableBefore === -1 ? messages.length : stableBefore };
}
