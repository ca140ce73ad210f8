import { hasFiniteVerb, opensImperative } from "./clause-shape.js";
import { DECISION, MODAL, ONE_OFF, POLITE } from "./requirement-cues.js";

/**
 * Sentences that plainly ask for nothing, whatever verbs they hold: what a summary of a
 * request leaves out. Each is a kind of text people paste or type around their asks.
 */

/** "I tried X and it failed", "we ran the migration", "got this in prod": what happened, not what is wanted. */
const NARRATION =
  /^(?:(?:so|and|then|also|yesterday|today|earlier|last (?:week|night|time))[,\s]+)*(?:i|we)(?:'ve| have| had|'d)? (?:just |already |also |then |first |finally )?(?:tried|try|set|ran|run|compared|changed|added|noticed|found|saw|got|checked|looked|did|was|were|had|been|used|upgraded|downgraded|removed|deployed|spent|started|switched|wrote|rewrote|pointed|triggered|reverted|bumped|updated|installed|enabled|disabled|can see|see|keep getting|get)\b|^(?:got|saw|noticed|found|tried) (?:this|that|it|a|an|the)\b/i;

/** "Support escalated it", "the first version used a dict", "yesterday it deleted X": what happened. */
const PAST =
  /^(?:(?:yesterday|today|earlier|last (?:week|night|time|release)|this morning|so|and|then|but)[,\s]+)*(?:i|we|it|they|he|she|(?:our|my|the) \w+(?: (?!(?:is|are|was|were|has|have|will|would|should|can|must|stays?|remains?|gets?|becomes?)\b)\w+)?|this|that|half(?: of)? (?:the )?\w+|support|someone|users?|customers?|qa|ci)\s+(?:\w+ly\s+)?(?:\w+ed|went|broke|came|took|got|made|saw|ran|gave|began|found|left|lost|fell|hung|threw|wrote|rolled|was|were|had|did)\b/i;

/** "Postgres 16, we use ILIKE right now", "When I run X it fails": today's state or a trial, not a target. */
const TODAY =
  /\b(?:right now|currently|at the moment|as of now|these days)\b|^(?:when|if|after|once|whenever) (?:i|we|you) (?:run|ran|try|tried|open|opened|click|clicked|call|called|use|used|start|started|build|built|deploy|deployed)\b/i;

/** Ticket fields and section labels whose text describes: "Background:", "Priority: High", "Actual:". */
const FIELD =
  /^(?:\*\*|__)?(?:(?:qa|dev|release|support) notes?\b[^:]{0,60}|repro \d|background|context|motivation|description|priority|severity|environment|env|reporter|reported by|assignee|labels?|components?|status|versions?|os|browser|device|impact|fyi|why|problem|current behaviou?r|current|actual(?: behaviou?r| result)?|observed|symptoms?|logs?|error|stack ?trace|note(?: to self)?|update|edit|ps|eta|link|screenshot|related|see also|sprint|estimate|story points)(?:\*\*|__)?\s*:/i;

/** A deadline is a plan for the session, not a property of the result: "this has to ship before the 1st". */
const DEADLINE =
  /\b(?:has to|must|needs? to|should|to) (?:ship|land|go out|go live|be (?:done|merged|released|live|out|shipped|ready))\b[^.]*\b(?:before|by|this|next|on|in|until|end of)\b/i;

/** "don't start yet", "hold off for now": an instruction about when to work, not what. */
const NOT_YET =
  /^(?:(?:so|and|but|please)[,\s]+)?(?:don't|do not|no need to|hold off|wait|pause|let's wait|not now)\b.*\b(?:yet|for now|until|before (?:i|we)|till)\b|\b(?:don't|do not) (?:start|touch|change|merge|begin|do|build) (?:\w+ )?(?:yet|for now|until)\b|\b(?:move on|hold off|no action|not blocking|non-blocking|no rush)\b|^(?:push|commit|deploy|merge|ship) (?:it|that|this|them)\b|^(?:lgtm|looks good)\b/i;

/** "I'm not convinced", "not sure it's worth it": an opinion, not a decision. */
const OPINION = /^(?:i'm|i am|we're|we are|i|we) (?:not )?(?:convinced|sure|certain|aware|a fan|happy|thinking|wondering|curious|worried|afraid)\b/i;

/** Talk around the work: praise, reassurance, the writer's own plans, optional extras. */
const CHAT =
  /^(?:let me|i'll|i will|i'm going to|hope|nice (?:work|job|catch)|great (?:work|job|catch)|good (?:work|job|catch)|have fun|whatever(?! you do)|(?:don't|do not|no need to) worry|for your (?:patience|help|work|time)|beyond that|other than that|a couple of thoughts|some thoughts|(?:i )?trust your)\b|\bnot our problem\b|^\(.*\)\.?$/i;
/** An extra the writer leaves to the agent: "if you want to, no pressure", "up to you". */
const OPTIONAL = /\b(?:don't care either way|either way is fine|up to you|no strong (?:opinion|feelings?)|your call|no pressure|if you want to)\b/i;

/** A wish the writer also asks for in so many words overrides the patterns above: "I tried X, please use Y instead". */
function asksAnyway(text: string): boolean {
  // "the test you added passes without the fix, make it fail": the ask after the comma.
  if (/,\s*(?:please\s+)?(?:make|add|use|keep|fix|change|remove|move|put|handle|return|rename|update|drop|revert|wrap|split)\b/i.test(text)) return true;
  return (
    POLITE.test(text) ||
    /\b(?:please|should|must|need to|needs to|has to|have to)\b/i.test(text) ||
    (MODAL.test(text) && !/^(?:i|we) (?:tried|had|was|were)\b/i.test(text))
  );
}

/** "Same result in X", "Happens with every Y", "Not reproducible": more of the observation. */
const OBSERVATION =
  /^(?:same (?:result|thing|behaviou?r|error|issue|problem|output|here)|(?:also )?happens\b|not reproducible|(?:can't|cannot|couldn't) reproduce|works (?:fine |ok )?(?:on|in|with)\b|repro\b(?!\s+(?:tests?|cases?)\b))/i;
/** Where code lives is a pointer: "the validator lives in core/union.rs". */
const LOCATION = /\b(?:lives?|sits?|is defined|are defined|is implemented|comes from)\b[^.]*(?:\/|\.\w{1,4}\b)/i;
/** "rich 13.3, Python 3.10, Windows Terminal": the environment, listed. */
const ENVIRONMENT =
  /\b(?:python|node(?:\.?js)?|macos|mac os|windows|linux|ubuntu|debian|fedora|chrome|firefox|safari|ios|android|wsl|jdk|java|ruby|php|go|rustc?)\s*v?\d+(?:\.\d+)*\b/i;

export function plainlyNot(text: string): boolean {
  if (FIELD.test(text) || NOT_YET.test(text) || DEADLINE.test(text) || OPINION.test(text) || OBSERVATION.test(text) || OPTIONAL.test(text)) return true;
  if (/:$/.test(text.trim()) && DESCRIBING_LEAD.test(text)) return true;
  if (DECISION.test(text)) return false;
  if (ONE_OFF.test(text) && !asksAnyway(text)) return true;
  if (LOCATION.test(text) && !asksAnyway(text)) return true;
  if (ENVIRONMENT.test(text) && !opensImperative(text) && (!hasFiniteVerb(text) || !asksAnyway(text))) return true;
  return (NARRATION.test(text) || PAST.test(text) || TODAY.test(text) || CHAT.test(text)) && !asksAnyway(text);
}

/** A list under one of these leads lists what is, not what is wanted: "Environment:", "What I tried:". */
export const DESCRIBING_LEAD =
  /\b(?:environment|versions?|system info|setup|stack ?trace|logs?|output|observed|actual|current(?:ly)?|today|what (?:i|we) (?:tried|see|saw|get|got)|(?:i|we) tried|attempts?|symptoms?|context|background|notes?|links?|references?|screenshots?|(?:current |actual )?output(?: from)?|here'?s what)\b/i;
