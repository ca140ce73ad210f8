import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/plugin/core/redaction/redact-secrets.js";

// Fake credentials in real shapes: random characters, valid nowhere.
const OPENAI = "sk-proj-Tq7Vb2Nw9Lx4Rz8Kc3Mh6Pd1Fg5Js0Ya2We7Ub4Xn9Qi3Ko8Lt6";
const GITHUB = "ghp_8Kd2Lq7Vx4Mz9Nb3Rw6Tc1Hy5Fj0Gp2Sa7Eu4";
const AWS_ID = "AKIA4R7TQ2ZK9WX3MB5N";
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ZjJhIiwiaWF0IjoxNzE4MDAwMDAwfQ.q8Zx3LmN7pQ4rT6vW1yB5cD0eF9gH2iJ4kL6mN8oP0";
const BEARER = "8f2Kq9Zx3LmN7pQ4rT6vW1yB5cD0eF4gH7";

describe("redactSecrets leaves code alone: a variable or a call where a credential could stand is no secret", () => {
  it.each([
    // JavaScript / TypeScript objects, one line and several, last member with and without a comma.
    "const res = await fetch(url, { headers: { Authorization: authHeader } });",
    "const res = await fetch(url, {\n  headers: {\n    Authorization: authHeader,\n  },\n});",
    'const res = await fetch(url, {\n  headers: {\n    "Content-Type": "application/json",\n    Authorization: authHeader\n  }\n});',
    "headers: { Authorization: getAuthHeader() }",
    "headers: { Authorization: authHeader! },",
    "const client = new OpenAI({ apiKey: openaiApiKey });",
    "const cfg = { DB_PASSWORD: dbPassword, DB_USER: dbUser };",
    "const client = new Client({\n  token: authToken\n});",
    'headers: { "X-Auth-Token": sessionAuthToken, Accept: "application/json" }',
    // Python dicts and keyword arguments.
    'requests.get(url, headers={"Authorization": auth_header})',
    'headers = {\n    "Authorization": auth_header,\n    "Accept": "application/json",\n}',
    "session.headers.update(dict(Authorization=auth_header))",
    'headers = {"Authorization": os.environ["API_TOKEN"]}',
    // Go, Java, shell: the header's value is a variable.
    'req.Header.Set("Authorization", authHeader)',
    'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com/v1/me',
    'curl -H "Authorization: $AUTH_HEADER" https://api.example.com/v1/me',
    "Authorization: `Bearer ${accessToken}`,",
    // A header credential is machine-made, never words: a name there is one, in YAML too.
    "http:\n  headers:\n    Authorization: authHeader",
  ])("keeps: %s", async (text) => {
    expect(await redactSecrets(text)).toBe(text);
  });
});

describe("redactSecrets leaves placeholders alone: a key's shape with nothing in it is no secret", () => {
  it.each([
    // .env files and READMEs.
    "OPENAI_API_KEY=sk-...",
    "ANTHROPIC_API_KEY=sk-ant-...",
    "ANTHROPIC_API_KEY=sk-ant-api03-...",
    "STRIPE_SECRET_KEY=sk_live_...",
    "HF_TOKEN=hf_...",
    "OPENAI_API_KEY=sk-xxx",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    "AWS_ACCESS_KEY_ID=AKIA...",
    "SLACK_BOT_TOKEN=xoxb-xxxxxxxxxx-xxxxxxxxxx",
    "OPENAI_API_KEY=sk-your-key-here",
    "OPENAI_API_KEY=sk-...wxyz",
    "OPENAI_API_KEY=<your-key>",
    "OPENAI_API_KEY=YOUR_API_KEY",
    "DB_PASSWORD=changeme",
    "DB_PASSWORD=***",
    "Copy `.env.example` to `.env` and set `OPENAI_API_KEY=sk-...` there.",
    // Shell.
    'export OPENAI_API_KEY="sk-..."',
    'OPENAI_API_KEY="sk-..." python app.py',
    "llm keys set openai --api-key sk-...",
    // curl -H.
    'curl https://api.openai.com/v1/models -H "Authorization: Bearer sk-..."',
    'curl -H "Authorization: Bearer sk-xxxxxxxxxxxxxxxxxxxxxxxx" https://api.openai.com/v1/models',
    'curl -H "Authorization: Bearer <token>" https://api.example.com',
    // JSON.
    '{"api_key": "sk-...", "model": "gpt-4o"}',
    '{"headers": {"Authorization": "Bearer sk-proj-..."}}',
    '{"token": "{{secret}}"}',
    // YAML.
    "openai:\n  api_key: sk-...\n  model: gpt-4o",
    "github:\n  token: ghp_...",
    // Python and JavaScript.
    'client = OpenAI(api_key="sk-...")',
    'const openai = new OpenAI({ apiKey: "sk-..." });',
    'api_key = "..."',
  ])("keeps: %s", async (text) => {
    expect(await redactSecrets(text)).toBe(text);
  });
});

describe("redactSecrets still redacts real credentials in the same kinds of lines", () => {
  it.each([
    // JavaScript / TypeScript.
    [`headers: { Authorization: "Bearer ${JWT}" }`, JWT],
    [`const res = await fetch(url, {\n  headers: {\n    Authorization: 'Bearer ${BEARER}',\n  },\n});`, BEARER],
    [`const client = new OpenAI({ apiKey: "${OPENAI}" });`, OPENAI],
    // Python.
    [`requests.get(url, headers={"Authorization": "token ${GITHUB}"})`, GITHUB],
    [`client = OpenAI(api_key="${OPENAI}")`, OPENAI],
    // .env and shell.
    [`OPENAI_API_KEY=${OPENAI}`, OPENAI],
    [`export GITHUB_TOKEN=${GITHUB}`, GITHUB],
    [`AWS_ACCESS_KEY_ID=${AWS_ID}`, AWS_ID],
    // A key cut short still shows part of it.
    ["OPENAI_API_KEY=sk-proj-Tq7Vb2Nw9Lx4...", "Tq7Vb2Nw9Lx4"],
    // A word-like password in data (.env, YAML, a flow mapping) is data, not a variable.
    ["DB_PASSWORD=mesaharborraven", "mesaharborraven"],
    ["db:\n  user: app\n  password: mesaharborraven\n  port: 5432", "mesaharborraven"],
    ["environment: { POSTGRES_PASSWORD: mesaharborraven }", "mesaharborraven"],
    // A shell's tight `NAME=word` is data even inside a function's braces.
    ["deploy() {\n  PGPASSWORD=harborraven psql -h db -U app\n}", "harborraven"],
    // curl -H.
    [`curl -H "Authorization: Bearer ${BEARER}" https://api.example.com`, BEARER],
    [`curl -H "X-Api-Key: ${BEARER}" https://api.example.com`, BEARER],
    // JSON.
    [`{"Authorization": "Bearer ${JWT}"}`, JWT],
    [`{"api_key": "${OPENAI}", "model": "gpt-4o"}`, OPENAI],
    // YAML and HTTP dumps: an unquoted value there is data.
    [`headers:\n  Authorization: ${BEARER}`, BEARER],
    ["GET /v1/me HTTP/1.1\nAuthorization: abcDEF123ghiJKL456mno\nAccept: */*", "abcDEF123ghiJKL456mno"],
    // A map printed in a log: braces and commas, but the value is a token, not a name.
    ["headers={Authorization=s3cr3tT0k3nAbc9, Accept=json}", "s3cr3tT0k3nAbc9"],
  ])("redacts the secret in: %s", async (text, secret) => {
    const redacted = await redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain("[REDACTED:");
  });
});

describe("redactSecrets judges filler quickly", () => {
  it("does not backtrack for long on long masked-looking values", async () => {
    const text = `API_TOKEN=sk-your-${"xxx-".repeat(5_000)}! and API_TOKEN=sk-${"x".repeat(20_000)}ab!`;
    const started = performance.now();
    await redactSecrets(text);
    // A guard against catastrophic backtracking, not a speed target.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
