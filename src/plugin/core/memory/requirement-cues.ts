/**
 * The words that tell a requirement from a description, as data: which verbs open an
 * instruction, which instructions are about this session's work rather than its result,
 * which words ask for something ("should", "we want") and which only report ("argues").
 * Code spans are masked as `\u0000n\u0000` before these are applied.
 */

/** Base-form verbs that open an instruction about the code, tests, docs or repository. */
export const VERBS = new Set(
  `accept add adjust align allow annotate append apply assert assign attach avoid backport base bound break bubble bump cache call cap
  catch change clamp clarify clean clear close collapse collect combine compare compute convert copy correct count cover create credit
  cut decode dedupe deduplicate default defer define delete deprecate describe detect disable disallow document double drop emit enable
  encode enforce ensure escape exclude expand expose extend extract factor fall fill filter fix flag flatten flip flush fold follow force
  format forward gate generate give group guard handle hide hoist honour honor ignore implement include indent infer initialise initialize
  inline insert introduce invert isolate join keep label leave let limit link load lock lower make map mark match memoize mention merge
  migrate mirror mock move name narrow normalise normalize note omit order override pad parametrise parametrize parse pass patch pause pin
  point populate port prefer prefix preserve prevent print propagate protect prune put quote raise rank reassemble rebuild recompute record
  redirect redo reduce refactor reformat refuse regenerate register reject remove rename render reorder replace require reset resize
  resolve respect restore restrict resume retain retry return reuse revert reword rewrite round route save scope select send separate
  serialize serialise set shorten shrink simplify skip snapshot sort specify split stick stop store strip subclass support suppress swap
  switch tag tighten translate treat trim truncate turn unify unwrap update upgrade uppercase lowercase use validate warn widen wire wrap
  write build bind compile construct dedent derive dispatch drain enqueue evict expire export fire freeze hash hook import increase decrease
  increment inject instantiate interpolate invalidate iterate mask minimise minimize nest notify offer optimise optimize pick pipe poll
  prepend preload process prompt provide query queue refresh reload remember repeat replay reserve rotate sanitise sanitize scan schedule
  seed serve share shift show sign slice spawn stream subscribe substitute sum surface sync throttle throw toggle transform traverse try
  unset unpack upload verify wait walk watch accumulate coerce distinguish dedupe drop exit fetch lint loosen reflect reread
  redraw reindent rewind rerender sniff say state list claim read expect fail`.split(/\s+/),
);

/**
 * Instructions about this session's work, not about the result: nothing of them has to
 * hold once the work is done ("run the tests", "push it", "show me the diff").
 */
export const ONE_OFF = new RegExp(
  "^(?:" +
    [
      "run|rerun|re-run|push(?! \\S+ onto)|submit|commit(?! messages?\\b)|sketch|lint(?= it| this| that| now| the| again)|rebase|squash|deploy|bisect|dig|debug|diagnose|profile|benchmark|measure|investigate|reproduce(?! it as a)|repro(?! (?:test|case|it as a))|confirm|finish|finali[sz]e|proceed|draft|reply|ping|paste|grep|search|find|look(?! up\\b)",
      "see(?! (?:that|to it)\\b)|compare (?:with|them|it|the (?:two|output|outputs|results))\\b|build (?:the docs|it|everything|the project)|\\w+ (?:it |this |the \\S+ )?locally|say (?:what|how|why|whether|which|if)|tell (?:me|us)|read(?![^,.;]{0,40}\\bfrom\\b)",
      "merge (?:it|this|the (?:pr|branch))|release (?:it|v?\\d)|publish (?:it|v?\\d)|tag (?:a|the) release",
      "show (?:me|us|what|how|where|why|whether|if|the (?:diff|output|log|logs|error|failure|traceback|result|results|numbers|code))",
      "explain(?!\\s+(?:in|inside|within)\\b)|write up|summari[sz]e|walk (?:me|us) through|let (?:me|us) know|report back|give (?:me|us)",
      "try (?:it|this|that|again|out|running|to |with |on |the (?:tests?|suite|build|command|script|fix|change|branch)|a |an |\\w+ing\\b)|have a look|take a look|figure out|work out",
      "answer (?:the|their|his|her|them|that)|respond (?:to|on)|post (?:it|the|a|that)|close (?:it|this|the (?:issue|pr|ticket|thread|discussion))|open (?:a|an|the) (?:pr|pull request|issue|ticket)",
      "wrap (?:it|this|this one|things) up|complete (?:it|this|the (?:work|task|pr|review|job|change|fix))|go ahead|start on|get started|continue (?:with|on the|working)|time it|list (?:all|every) (?:the )?(?:places|files|callers|usages|uses|occurrences)",
      "verify (?:whether|if)|check(?!\\s+(?:that|it|they|this|those|we|the \\S+ still)\\b)|write (?:me|us)\\b|ship (?:it|this|that)",
    ].join("|") +
    ")\\b",
  "i",
);

/** "Check that X still holds" names a behaviour that must survive the change. */
export const CHECK_THAT = /^(?:check|verify|make sure|ensure|confirm) (?:that |it |they |this |those )?.*\bstill\b/i;

/** Debug work the user will not keep: traces and logs "so we can see". */
export const DEBUG_AID = /\b(?:so (?:we|i|you) can see|for this input|to see what|debug (?:print|output|log|trace)s?|temporar(?:y|ily)|traces?\b)/i;

/** Words before the verb that do not change what is asked ("Also, please add ..."). */
export const FILLER =
  /^(?:uh|um|erm|er|hmm|anyway|anyhow|honestly|man(?=,)|lgtm|please|pls|also|now|then|and|so|ok|okay|no(?=,)|nope(?=,)|actually|just|instead|finally|next|first|lastly|oh|alright|but|yes|yep|yeah|right(?=,)|great|good|fine|sure|ah|hm+|well|cool|perfect|thanks|thank you|in that case|while you're at it|while you are at it|one more thing|last thing|on top of that|in addition|additionally|otherwise|meanwhile|at minimum|at the very least|at least|if possible|ideally|again|always|never|only|explicitly|simply|still)\b[,:\s-]*/i;

/** Polite requests to the agent: "can you add ...?", "I'd like you to add ...", "let's add ...". */
export const POLITE =
  /^(?:(?:can|could|would|will) you(?: please)?(?: also)?|(?:would you mind|do you mind)|(?:i|we)(?: would|'d)? (?:like|want|need) you to|let's|let us|go ahead and|feel free to|be sure to|remember to|don't forget to|do not forget to|make it so|i need you to|please)\s+/i;

/**
 * Wants and obligations: a clause with one states a target ("should", "needs to", "we want",
 * "the reviewer asks for"). Third-party opinions that are only reported ("a user argues")
 * are not here: see REPORTED.
 */
export const MODAL =
  /\b(?:must|mustn't|must not|should|shouldn't|should not|shall|shall not|ought to|needs? to|needn't|has to|have to|had better|is to be|are to be|make sure|be sure|ensure|would like|'d like|would prefer|'d prefer|would rather|'d rather|(?:we|you|it) could (?:at least|also|just|simply)|(?:would|'d) (?:only )?accept|prefers?|wants?|want(?:ed)? to|(?:asks?|asked|requests?|requested) (?:for|to|that|a|an|the)|insists?|suggests|proposes|recommends|it'd be (?:nice|good|better|great)|it would be (?:nice|good|better|great)|would be (?:nice|good|better|great)|i'd expect|we'd expect|i would expect|we would expect|(?:i|we) expect|expected to|needs? (?:a|an|the|its|their|some|real|proper|one|both|another)\b|needs(?= (?!to\b)[\w\u0000])|supposed to|(?:we|i|you) need\b|(?:is|are) done (?:once|when|after|only when)|(?:go|goes|belong|belongs) (?:in|into|under|next to|beside|alongside))\b|^expected\b|^(?:the )?(?:fix|goal|target|desired (?:behaviou?r|result|output))\s*(?:is\s*)?[:—–]/i;

/** Statements that put a want in someone's mouth without adopting it. */
export const REPORTED =
  /\b(?:feels? (?:differently|strongly|that)|argues?|argued|claims?|claimed|thinks|thought|believes?|believed|suggested|complains?|complained|reports?|reported|noted|notes|points? out|pointed out|mentioned|asked (?:whether|if|about|why|how)|wonders?|wondered|people expect|users expect|they expect|someone (?:wants|expects))\b/i;

/** "What I want", "not what we expected": a want inside a complaint about today's behaviour. */
export const WANT_IN_COMPLAINT =
  /\b(?:not|isn't|wasn't|never)\s+(?:\w+\s+)?what (?:i|we|you|they|people|users) (?:want|wanted|need|needed|expect|expected|asked for)\b|\b(?:like|as) (?:it|they|this|that|one|you|we|i) (?:should|would|must)\b/i;

/** Hunches and diagnoses: "my guess is ...", "probably the cache". */
export const HEDGE =
  /^(?:i think|i don't think|i do not think|i guess|i suspect|i believe|i assume|i'm not sure|not sure|maybe|perhaps|probably|possibly|presumably|apparently|it seems|seems|looks like|it looks like|my (?:guess|hunch|theory|suspicion|bet)|the (?:culprit|cause|root cause|problem|issue|bug) (?:is|seems|looks|was)|culprit|root cause)\b/i;

/** Leads that make a sentence a standing instruction for the session ("From now on ...", "For all of these: ..."). */
export const STANDING = new RegExp(
  "^(?:(?:and |ok,? |also,? |please,? )?(?:" +
    [
      "from now on|from here on|from this point on|henceforth|going forward|throughout(?: (?:today|this session|the session))?|for the rest of (?:this|the|today's) (?:session|day|work)",
      "(?:for|on|in) (?:all|each|every|any|anything|everything|every one|each one)\\b[^:,.]{0,30}?(?:these|them|tasks?|today|session|here|else)\\b",
      "for everything|in (?:this|the whole) session",
      "(?:[\\w-]+ ){0,2}(?:reminder|heads-up|heads up|ground rules?|house rules?|rules?|policy|convention)s?(?: (?:for|of) [^:]{0,40})?:",
      "as (?:i|we) (?:said|asked|mentioned)(?: (?:at the start|before|earlier|above))?|like (?:i|we) (?:said|asked)(?: (?:at the start|before|earlier))?|again,|same (?:rule|as before)",
    ].join("|") +
    "))",
  "i",
);

/** Decisions that constrain later work: "we're not changing the default", "the maintainer declined it". */
export const DECISION =
  /^(?:(?:we|i)(?:'re| are|'m| am) not (?:going to )?(?!(?:sure|convinced|certain|aware|happy|a fan)\b)\w+|(?:we|i) (?:won't|will not|can't|cannot|don't want to|do not want to)\b|let's not\b|(?:the )?(?:maintainers?|reviewers?|team|upstream|we)(?: has| have)? (?:already )?(?:declined|rejected|decided|agreed|settled)\b|no (?:code )?changes? (?:here|to|in|needed|required)\b|not a code change\b|won't fix\b|go with\b|stick with\b|we'll go with\b|(?:we|i) (?:went|settled) (?:with|on)\b|forget (?:the|about)\b|scratch (?:the|that)\b|ditch (?:the|that)\b)/i;

/** A prohibition without a verb: "no new dependencies", "nothing new in the deps". */
export const PROHIBITION =
  /^(?:no|nothing|never any|zero|not a single) (?!(?:idea|clue|luck|rush|worries|problem|problems|way|wonder|matter|one|doubt|output|error|errors|change in|difference|left|else|more|pending|further|yet|to (?:add|do)|from)\b)\S/i;

/** Deliverables named without a verb ("a regression test for ...", "changelog entry too"). */
export const DELIVERABLE_NOUN =
  /\b(?:tests?|testcases?|changelog|changesets?|changes\.\w+|history\.md|news|release[- ]notes?|whats_new|what's new|docs|documentation|docstrings?|fixtures?|snapshots?|typings|type hints?|cross-links?|benchmarks?)\b/i;
/** Nouns that head a deliverable phrase after one of the above: "changelog entry", "docs paragraph", "test case". */
export const DELIVERABLE_HEAD =
  /^(?:entry|entries|line|lines|note|notes|section|paragraph|page|example|examples|case|cases|update|file|fragment|comment|link)$/i;

/** Words that cannot start an imperative, however a determiner follows them ("Only the ...", "Same thing"). */
export const NOT_A_VERB = new Set(
  `a an the this that these those it its it's they them their there here he she we i you your our my me us who what which why how where when
  yet nor thus hence therefore however behind beyond across along around through toward towards upon within except despite inside
  outside against alongside beside besides near past till versus whether
  whose if unless once until though although whereas while since because as so but or nor and also then now today yesterday currently
  again even still already otherwise instead either neither other another such same different separate unrelated related similar new old
  only just both all each every any some no not none nothing something anything everything someone anyone everyone nobody people users
  user maintainer maintainers reviewer reviewers reporter callers caller folks with without for from in on at by of to into onto over
  under about like unlike per via after before during between among above below next last first second third one two three
  maybe perhaps probably apparently yes no ok okay thanks sorry hi hello hey also fine great good well right sure
  bug issue problem error crash regression report ticket pr ci lint build test tests docs changelog release version output result
  expected actual steps note`.split(/\s+/),
);

/** Whole-message pleasantries and acknowledgements: nothing to keep. */
export const PLEASANT = new Set(
  `hi hello hey thanks thank you thx ty cheers great cool nice perfect awesome ok okay good job well done sounds looks lgtm a lot so much
  there again that that's works yes yep yeah sure fine right alright got it makes sense agreed excellent brilliant wonderful lovely no
  rush worries problem np`.split(/\s+/),
);

/** The checkout a request names first ("/tmp/run-7/ws4:", "(/srv/r3/ws5)", "Working in /x —"): where, not what. */
export const WORKSPACE = /^\s*\(?(?:(?:working )?in\s+)?(?:\/|[A-Za-z]:\\)[^\s:)]*\)?[:,]?\s+(?:[—–-]\s+)?/i;
