/**
 * The requirement clauses of a user request: what the user asks to hold after the work
 * ("add X", "it must Y", "keep Z", "when A, return B"), as opposed to what they describe
 * (today's behaviour, reproduction steps, background, questions). A constraint of a task
 * record is one such clause, whole, with the conditions attached to it.
 *
 * Sentences come from `Intl.Segmenter`; clauses are the parts of a sentence joined by ";",
 * a dash, or ": " / ", and" before a new imperative. Code spans are masked while splitting;
 * fenced code blocks are illustrations, never requirements.
 */

const SENTENCES = new Intl.Segmenter("en", { granularity: "sentence" });

/** Verbs that open a request for a lasting change ("add", "keep", "make it"...). */
const IMPERATIVE =
  /^(?:add|make|write|fix|use|keep|return|change|remove|rename|support|handle|implement|raise|allow|accept|reject|treat|ignore|skip|update|create|replace|move|delete|drop|set|put|include|exclude|convert|refactor|extract|split|merge|ensure|avoid|preserve|throw|emit|log|validate|document|describe|mention|note|rewrite|introduce|expose|export|wrap|parse|format|sort|limit|cap|strip|normali[sz]e|escape|quote|trim|lowercase|uppercase|encode|decode|serialize|pass|thread|forward|cover|hide|warn|guard|sanitize|deduplicate|dedupe|filter|round|pad|truncate|indent|register|configure|enable|disable|require|forbid|reuse|retain|respect|honou?r|prevent|cache|retry|bump|revert|restore|switch|stop|give|mark|store|save|prefer|default|name|call|mirror|gate|flatten|fold|credit|target|stick|leave|lower|apply|check|double-check|test|only|never|always|don'?t|do not|no|match|mock|start with|go with|base|align|line up|break|join|collapse|expand|fall back|bail|error|read|resolve|load|look up|inline|pin|list|build|parametri[sz]e|link|tighten|compare|reassemble|reformat|reset|assert|bound|correct|clarify|reword|shorten|extend|widen|narrow|loosen|deprecate|port|backport|reply|comment|explain in|state|spell out|cite)\b/i;

/** Modal and wish cues: a clause with one states a target ("should", "needs to", "we want"). */
const MODAL =
  /^(?:and\s+)?(?:as|like) (?:i|we) (?:said|asked|mentioned)\b|^(?:expected|i'?d expect|we'?d expect)\b|\b(?:must|mustn'?t|should|shouldn'?t|shall|needs? to|need(?:s)? (?:a|an|the|its|their)\b|(?:we|i|you) need\b|has to|have to|ought to|make sure|ensure|expected to|wants?\b|would like|'d like|i'd expect|we'd want|it'd be (?:nice|good|better)|has to be|is to be|are to be|go(?:es)? in\b|belongs? in)\b/i;

/** Words in front of the verb that do not change what is asked ("Also, please add ..."). */
const FILLER =
  /^(?:please|also|now|then|and|so|ok|okay|actually|just|instead|finally|next|first|lastly|oh|alright|but|yes|yep|right|great|good|fine|plus|sure|ah|hm+|and then|in that case|while you're at it|one more thing|last thing|on top of that)\b[,:\s-]*/i;
/** "Can you add ...?" and "I'd like you to add ..." are requests. */
const POLITE = /^(?:(?:can|could|would|will) you(?: please)?|(?:i|we)(?: would|'d)? (?:like|want|need) you to|let's|let us|go ahead and|feel free to)\s+/i;
/** One-off instructions about this turn's work, not lasting requirements ("run the tests"). */
const ONE_OFF =
  /^(?:run|rerun|re-run|show (?:me|us|what|how|where|the (?:diff|output|log|error|failure))|look|explain(?! in)|tell|push|submit|go ahead|finish|finalize|wrap (?:it|this|this one) up|write up|open (?:a|the) (?:pr|pull request)|rebase|commit(?! that separately)|squash|paste|print|dump|read|describe what|summari[sz]e|investigate|find|search|grep|try|see|give me|let me know|check (?:whether|if|what|why|how)|what|why|how|where|when\b(?=[^,]*\?)|is|are|does|do\b(?! not)|did|can|could|would|will)\b/i;
/** A lead of scope or condition before the main clause: "If X, ...", "When X, ...", "For t1, ...". */
const CONDITION = /^(?:if|when|whenever|unless|once|for|in|on|after|before|while|with|without|as long as|as i said(?: at the start)?|like i (?:said|asked)|again)\b[^,]{0,120},\s+/i;
/** Task labels and back-references in front of a request: "t2 —", "Task B:", "back to X —", "re X -". */
const LABEL = /^(?:(?:task\s+)?[a-z]?\d+|task [a-z]|t\d+|back to [^—–:-]{1,80}|re [^—–:-]{1,80}|about [^—–:-]{1,60}|for t\d+)\s*[—–:-]\s*/i;
const WORKSPACE = /^\s*(?:\(?(?:working in\s+)?(?:\/|[A-Za-z]:\\)[^\s:)]*\)?[:,]?\s+(?:[—–-]\s+)?)/i;
/** Noun phrases that name a deliverable without a verb ("regression test with ...", "a CHANGELOG entry"). */
const DELIVERABLE = /^(?:also\s+)?(?:an?\s+)?(?:(?:regression|unit|failing)\s+)?(?:tests?|test case|changelog(?: entry)?|docs?|documentation|a note|note|coverage|typings?|types?)\b(?!\s+(?:is|are|was|were|fails?|passes|pass)\b)/i;

const PLEASANT = new Set(
  "hi hello hey thanks thank you thx cheers great cool nice perfect awesome ok okay good job well done sounds looks lgtm a lot so much there again that that's works yes yep sure".split(" "),
);

/** The requirement clauses of `text`, in order, each whitespace-flattened and without end punctuation. */
export function requirementClauses(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of clausesByParagraph(text)) {
    // Once a paragraph has stated a requirement, its general statements are further rules
    // of the specification ("A token made only of punctuation is not a word").
    let specifying = false;
    for (const clause of paragraph) {
      if (isRequirementClause(clause) || (specifying && isRuleStatement(clause))) {
        out.push(...ruleList(clause));
        specifying = true;
      }
    }
  }
  return out;
}

/** Every clause of `text` (requirements or not), in order. */
export function clauses(text: string): string[] {
  return clausesByParagraph(text).flat();
}

function clausesByParagraph(text: string): string[][] {
  return blocks(text).map((block) => {
    const out: string[] = [];
    for (const { segment } of SENTENCES.segment(block.text)) {
      for (const clause of splitClauses(segment)) {
        const shown = block.unmask(clause).replace(/\s+/g, " ").trim().replace(WORKSPACE, "").replace(/[.;,]+$/, "").trim();
        if (shown !== "") out.push(shown);
      }
    }
    return out;
  });
}

// A general statement of how things are to be: present tense, no example of today's output.
const RULE_VERB = /\b(?:is|are|isn't|aren't|counts?|goes|go|stays?|becomes?|keeps?|applies|apply|holds?|comes? back|gets?|means?|wins?|takes? precedence|falls? back|ends? up|starts?|ends?)\b/i;
const TODAY = /\b(?:returns?|gives?|prints?|raises?|crashes|fails|leaves|splits|produces|outputs|shows|yields|currently|today|right now|at the moment|instead of|but it|however)\b|\u0000|\(\s*["'\d[{]/i;

function isRuleStatement(clause: string): boolean {
  return !clause.endsWith("?") && RULE_VERB.test(clause) && !TODAY.test(clause) && !isPleasantry(clause) && clause.split(/\s+/).length >= 4;
}

/**
 * A rule that announces a list ("the rules must hold for any separator: a run becomes one
 * sep, and there is no sep at either end") is the rule and each of its items.
 */
function ruleList(clause: string): string[] {
  const colon = clause.indexOf(": ");
  if (colon < 0) return [clause];
  const head = clause.slice(0, colon);
  if (!MODAL.test(head) && !IMPERATIVE.test(stripFillers(head))) return [clause];
  const items = clause.slice(colon + 2).split(/,\s+and\s+|;\s+|,\s+(?=(?:there|a|an|the|each|every|no)\b)/);
  return items.length < 2 ? [clause] : [head, ...items];
}

/** Whether one clause states something the user asks for. */
export function isRequirementClause(clause: string): boolean {
  if (isPleasantry(clause) || !/[a-z]{2}/i.test(clause)) return false;
  const question = clause.endsWith("?");
  for (const lead of leadsOf(clause)) {
    const polite = POLITE.exec(lead);
    if (polite) return IMPERATIVE.test(stripFillers(lead.slice(polite[0].length)));
    if (question) continue;
    if (ONE_OFF.test(lead) && !MODAL.test(lead)) continue;
    if (IMPERATIVE.test(lead) || DELIVERABLE.test(lead)) return true;
  }
  return !question && MODAL.test(clause) && !/^(?:i think|i guess|maybe|probably|my guess)\b/i.test(clause);
}

/** The clause, then the clause without its fillers, label, and leading condition. */
function leadsOf(clause: string): string[] {
  const bare = stripFillers(clause.replace(WORKSPACE, "").replace(LABEL, ""));
  const afterCondition = stripFillers(bare.replace(CONDITION, ""));
  const afterColon = stripFillers(bare.replace(/^[^:`]{1,40}:\s+/, ""));
  return [...new Set([bare, afterCondition, afterColon])];
}

function stripFillers(text: string): string {
  let rest = text.trim();
  for (let previous = ""; previous !== rest; ) [previous, rest] = [rest, rest.replace(FILLER, "").trim()];
  return rest;
}

function isPleasantry(clause: string): boolean {
  return (clause.toLowerCase().match(/[a-z']+/g) ?? []).every((word) => PLEASANT.has(word));
}

/**
 * Splits a sentence where a new clause starts: at ";", at a spaced dash, and at ": " or
 * ", and " / " and " when what follows opens with an imperative ("Gate them with cfg and make
 * sure docs.rs still shows them").
 */
function splitClauses(sentence: string): string[] {
  const parts = sentence.split(/;\s+|\s+-\s+(?=[a-z])|(?<=[a-z0-9)'"][.!?])\s+(?=[a-z])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl)\.\s+)/);
  return parts.flatMap((part) => {
    const pieces: string[] = [];
    let rest = part;
    for (;;) {
      const joint = /(?::\s+|,\s+(?:and\s+|then\s+|plus\s+)?|\s+and\s+(?:also\s+)?|\s+then\s+|\s+plus\s+)(?=\S)/g;
      let cut: { at: number; next: number } | undefined;
      for (let match = joint.exec(rest); match; match = joint.exec(rest)) {
        const after = rest.slice(match.index + match[0].length);
        const before = rest.slice(0, match.index);
        // A leading condition stays with its rule: "When X is empty, return default".
        const condition = /^(?:if|when|whenever|unless|once|as long as|after|before|while|for)\b/i.test(stripFillers(before)) && !before.includes(",");
        if (!condition && before.trim().split(/\s+/).length >= 2 && IMPERATIVE.test(stripFillers(after)) && !/^(?:no|only|never|test|check|list|break|error|read|match|call|name|default|note|base)\b/i.test(after)) {
          cut = { at: match.index, next: match.index + match[0].length };
          break;
        }
      }
      if (!cut) break;
      pieces.push(rest.slice(0, cut.at));
      rest = rest.slice(cut.next);
    }
    pieces.push(rest);
    return pieces.flatMap(splitStatedTargets);
  });
}

// "<subject> should X, and <subject> should Y": two requirements, each whole.
const STATED_TARGET = /^(?:(?:the|a|an|this|that|it|we|i|they|its|each|every|no|any)\s+)?[\w.`'()\u0000-]+(?:\s+[\w.`'()\u0000-]+){0,5}\s+(?:should|must|needs? to|has to|have to|shall|(?:only\s+)?wants?|(?:only\s+)?need)\b/i;

function splitStatedTargets(piece: string): string[] {
  const joint = /(?:,\s+(?:and|but)\s+|\s+and\s+|,\s+)(?=\S)/g;
  for (let match = joint.exec(piece); match; match = joint.exec(piece)) {
    const before = piece.slice(0, match.index);
    const after = piece.slice(match.index + match[0].length);
    if (STATED_TARGET.test(after) && (MODAL.test(before) || IMPERATIVE.test(stripFillers(before)))) return [before, ...splitStatedTargets(after)];
  }
  return [piece];
}

/**
 * Paragraphs and list items of a request, with code spans masked (so `a.py` never splits a
 * sentence) and fenced blocks dropped; a block can restore its masked spans.
 */
function blocks(text: string): Array<{ text: string; unmask: (part: string) => string }> {
  const code: string[] = [];
  const masked = text
    .replace(/```[\s\S]*?(?:```|$)/g, "\n\n")
    .replace(/`[^`\n]+`|"[^"\n]{1,80}"/g, (span) => `\u0000${code.push(span) - 1}\u0000`);
  const unmask = (part: string) => part.replace(/\u0000(\d+)\u0000/g, (_, index: string) => code[Number(index)] ?? "");
  const out: Array<{ text: string; unmask: (part: string) => string }> = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push({ text: current.join(" "), unmask });
    current = [];
  };
  masked.split("\n").forEach((raw, index, lines) => {
    const line = raw.trim();
    const bullet = /^(?:[-*•+]|\d{1,2}[.)])\s+/.exec(line);
    if (line === "" || bullet) flush();
    if (line !== "") current.push(bullet ? line.slice(bullet[0].length) : line);
    // A first line without end punctuation before a blank line is a pasted issue's title.
    if (index === 0 && line !== "" && !/[.!?:;,]$/.test(line) && (lines[1] ?? "").trim() === "") flush();
  });
  flush();
  return out;
}
