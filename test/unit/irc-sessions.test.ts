import { describe, expect, it } from "vitest";
import { nicksOf, parseIrcLog, stripAddressees } from "../../src/dev/irc/irc-log.js";
import { buildIrcSession, conversationsOf, IrcGoldSessionSchema, parseReplyLinks } from "../../src/dev/irc/irc-sessions.js";
import { RcmError } from "../../src/kit/errors/rcm-error.js";
import { LabelledSessionSchema } from "../../src/lab/route-eval/labelled-sessions.js";

// Every log line here is made up, in the corpus's line shapes.

describe("IRC log lines", () => {
  it("reads the corpus's line shapes", () => {
    const lines = parseIrcLog(
      "x.ascii.txt",
      [
        "[10:00] <ana> the build fails on arm",
        "[10:01]  * bo looks at it",
        "[10:02] -helper:#chan- a bot notice",
        "=== cy [~cy@host]  has joined #chan",
        "=== cy is now known as cyril",
        "chan 2020-01-02 [10:03:04] <dee>\t tab after the name  ",
        "chan 2020-01-02 [10:03:05] *eve \tshrugs",
        "chan 2020-01-02 [10:03:06] -evalbot- () ",
        "[10:04] (fay/#chan) relayed from elsewhere",
        "[10:05] <gus>",
      ].join("\n"),
    );
    expect(lines.map((line) => [line.kind, line.nick, line.text])).toEqual([
      ["message", "ana", "the build fails on arm"],
      ["action", "bo", "looks at it"],
      ["notice", "helper", "a bot notice"],
      ["system", "cy", "cy [~cy@host]  has joined #chan"],
      ["system", "cy", "cy is now known as cyril"],
      ["message", "dee", "tab after the name"],
      ["action", "eve", "shrugs"],
      ["notice", "evalbot", "()"],
      ["message", "fay", "relayed from elsewhere"],
      ["message", "gus", ""],
    ]);
    expect(lines.map((line) => line.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("names the file and the line of a line of no known shape", () => {
    expect(() => parseIrcLog("x.ascii.txt", "[10:00] <ana> fine\nsomething else")).toThrow(
      "x.ascii.txt:2: (line): not a message, an action, a notice or a system line",
    );
  });

  it("knows the names of writers, joiners and renamed people, not of mode changes", () => {
    const lines = parseIrcLog(
      "x",
      ["[10:00] <Ana> hi", "=== cy [~cy@host]  has joined #chan", "=== cy is now known as Cyril", "=== mode/#chan [+o dee] by op"].join("\n"),
    );
    expect([...nicksOf(lines)].sort()).toEqual(["ana", "cy", "cyril"]);
  });
});

describe("leading addressees", () => {
  const nicks = new Set(["ana", "bo", "cy"]);

  it("strips known names addressed at the start, several in a row, any case", () => {
    expect(stripAddressees("ana: try the other kernel", nicks)).toEqual({ text: "try the other kernel", stripped: 1, onlyAddress: false });
    expect(stripAddressees("Ana, bo: both of you", nicks)).toEqual({ text: "both of you", stripped: 2, onlyAddress: false });
    expect(stripAddressees("@cy see the wiki", nicks)).toEqual({ text: "see the wiki", stripped: 1, onlyAddress: false });
    expect(stripAddressees("bo:no space", nicks).text).toBe("no space");
  });

  it("leaves unknown names, names mid-sentence and bare words alone", () => {
    expect(stripAddressees("dan: not a name of the file", nicks).stripped).toBe(0);
    expect(stripAddressees("ask ana: she knows", nicks).stripped).toBe(0);
    expect(stripAddressees("ana try this", nicks).stripped).toBe(0);
    expect(stripAddressees("http://example.invalid/page", nicks).stripped).toBe(0);
  });

  it("keeps a message that is nothing but an address", () => {
    expect(stripAddressees("ana:", nicks)).toEqual({ text: "ana:", stripped: 0, onlyAddress: true });
  });
});

describe("reply links and conversations", () => {
  it("names the file and the line of a bad link", () => {
    expect(() => parseReplyLinks("x.annotation.txt", "3 3 -\n4 x -")).toThrow('x.annotation.txt:2: (line): not a link "i j -"');
    const error = (() => {
      try {
        parseReplyLinks("x.annotation.txt", "");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RcmError);
    expect(error).toMatchObject({ code: "corpus", location: { file: "x.annotation.txt", field: "(file)" } });
  });

  it("joins lines through context lines and names a conversation by its first annotated line", () => {
    // Window 3-6: 3 answers context 0, 6 answers context 0 too (so 3 and 6 are one
    // conversation), 4 opens one, 5 answers 4.
    const window = conversationsOf("x", parseReplyLinks("x", "0 3 -\n4 4 -\n4 5 -\n0 6 -"));
    expect(window.first).toBe(3);
    expect(window.last).toBe(6);
    expect(Object.fromEntries(window.conversationOf)).toEqual({ 3: "c3", 4: "c4", 5: "c4", 6: "c3" });
    expect([...window.fromContext]).toEqual(["c3"]);
  });

  it("refuses a window with an unannotated line", () => {
    expect(() => conversationsOf("x.annotation.txt", parseReplyLinks("x", "3 3 -\n5 5 -"))).toThrow(
      "x.annotation.txt:0: (file): log line 4 lies in the annotated window 3-5 but starts no link",
    );
  });
});

describe("an annotated file as a labelled session", () => {
  const log = [
    "[09:00] <ana> context: an old question",
    "[09:01] <bo> context: something else",
    "[09:02] <cy> context: more",
    "[09:03] <bo> ana: answer to the old question",
    "=== dee [~d@host]  has joined #chan",
    "[09:04] <dee> how do I mount a disk",
    "[09:05] <cy> dee, use the disks tool",
    "[09:06] <ana>",
    "[09:07]  * dee mounts it",
  ].join("\n");
  const annotation = ["0 3 -", "4 4 -", "5 5 -", "5 6 -", "6 7 -", "6 8 -"].join("\n");
  const built = buildIrcSession({
    id: "demo/one",
    file: "data/demo/one.ascii.txt",
    log,
    annotation,
    annotationFile: "data/demo/one.annotation.txt",
    description: (counts) => `made up, ${counts.requests} requests`,
    fileURL: "https://example.invalid/one",
    lineURL: (line) => `https://example.invalid/one#L${line + 1}`,
  });

  it("makes the annotated messages the requests, labelled with their conversation and how they stand in it", () => {
    expect(built.session.requests).toEqual([
      { text: "answer to the old question", task: "c3", style: "from-context", source: "https://example.invalid/one#L4" },
      { text: "how do I mount a disk", task: "c5", style: "opening", source: "https://example.invalid/one#L6" },
      { text: "use the disks tool", task: "c5", style: "reply", source: "https://example.invalid/one#L7" },
      { text: "mounts it", task: "c5", style: "reply", source: "https://example.invalid/one#L9" },
    ]);
    expect(LabelledSessionSchema.parse(built.session)).toMatchObject({ id: "demo/one", shape: "everyday", description: "made up, 4 requests" });
  });

  it("keeps the system line and the empty message in the gold, with no request", () => {
    expect(IrcGoldSessionSchema.parse(built.gold).lines).toEqual([
      { line: 3, conversation: "c3", kind: "message", request: 1 },
      { line: 4, conversation: "c4", kind: "system" },
      { line: 5, conversation: "c5", kind: "message", request: 2 },
      { line: 6, conversation: "c5", kind: "message", request: 3 },
      { line: 7, conversation: "c5", kind: "message" },
      { line: 8, conversation: "c5", kind: "action", request: 4 },
    ]);
  });

  it("counts what it left out and changed", () => {
    expect(built.counts).toMatchObject({
      contextLines: 3,
      annotatedLines: 6,
      requests: 4,
      systemLines: 1,
      emptyMessages: 1,
      actions: 1,
      addressesStripped: 2,
      conversations: 2,
      conversationsFromContext: 1,
      systemOnlyConversations: 1,
      linesAfterWindow: 0,
    });
  });

  it("refuses links past the end of the log", () => {
    expect(() =>
      buildIrcSession({
        id: "demo/two",
        file: "two.ascii.txt",
        log: "[09:00] <ana> one line",
        annotation: "0 0 -\n1 1 -",
        annotationFile: "two.annotation.txt",
        description: () => "",
        fileURL: "https://example.invalid/two",
        lineURL: () => "https://example.invalid/two",
      }),
    ).toThrow("two.annotation.txt:0: (file): links reach line 1 but two.ascii.txt has 1 lines");
  });
});
