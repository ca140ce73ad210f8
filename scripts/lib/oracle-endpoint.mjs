// An OpenAI-compatible chat endpoint on 127.0.0.1 for the "always right" measurements: each
// request's prompt (its messages' text, joined) goes to `answer`, whose object is sent back as
// a model would: bare, fenced, or followed by a remark, in turn.
import { createServer } from "node:http";

/**
 * @param {(prompt: string) => object | undefined} answer the reply for a prompt, or undefined when it cannot be placed
 * @param {object} fallback what is sent for a prompt `answer` cannot place
 * @returns {Promise<{ env: Record<string, string | undefined>; calls: () => number; unplaced: () => number; close: () => void }>}
 */
export async function startOracleEndpoint(answer, fallback) {
  let calls = 0;
  let unplaced = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const prompt = JSON.parse(body)
        .messages.map((/** @type {{ content: unknown }} */ message) => (typeof message.content === "string" ? message.content : ""))
        .join("\n");
      const reply = answer(prompt);
      if (!reply) unplaced += 1;
      const json = JSON.stringify(reply ?? fallback);
      const content = [json, `\`\`\`json\n${json}\n\`\`\``, `${json}\nThat is my best reading.`][calls++ % 3];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `oracle-${calls}`,
          object: "chat.completion",
          created: 0,
          model: "oracle",
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    env: { ...process.env, RCM_AUX_BASE_URL: `http://127.0.0.1:${port}/v1`, RCM_AUX_MODEL: "oracle", RCM_AUX_API_KEY: "oracle" },
    calls: () => calls,
    unplaced: () => unplaced,
    close: () => server.close(),
  };
}
