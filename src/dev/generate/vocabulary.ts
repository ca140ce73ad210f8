/**
 * Word pools the generated tasks are combined from. A component is `qualifier head`
 * ("invoice exporter"); its key nouns come from both words' pools. Every word here is
 * distinctive: the request templates never use one, so a word names its task.
 */
export interface Qualifier {
  word: string;
  /** Directory the component lives under (`src/<area>/...`). */
  area: string;
  keys: readonly string[];
}

export interface Head {
  word: string;
  /** Verb of the component's function symbol (`parse` -> `parse_date`). */
  verb: string;
  keys: readonly string[];
}

const q = (word: string, area: string, keys: string): Qualifier => ({ word, area, keys: keys.split(" ") });
const h = (word: string, verb: string, keys: string): Head => ({ word, verb, keys: keys.split(" ") });

export const VOCABULARY = {
  qualifiers: [
    q("invoice", "billing", "currency subtotal discount"),
    q("date", "util", "timezone weekday epoch"),
    q("retry", "net", "backoff jitter attempt"),
    q("theme", "ui", "palette contrast stylesheet"),
    q("rate", "api", "quota burst bucket"),
    q("session", "auth", "cookie expiry nonce"),
    q("webhook", "integrations", "signature payload delivery"),
    q("csv", "exports", "delimiter quoting column"),
    q("avatar", "profile", "thumbnail crop gravatar"),
    q("search", "search", "ranking stemming synonym"),
    q("cart", "shop", "coupon quantity checkout"),
    q("email", "mail", "recipient bounce unsubscribe"),
    q("upload", "storage", "chunk multipart checksum"),
    q("locale", "i18n", "plural translation fallback"),
    q("audit", "compliance", "actor trail retention"),
    q("password", "auth", "hash salt strength"),
    q("cron", "jobs", "crontab overlap schedule"),
    q("markdown", "content", "heading footnote anchor"),
    q("image", "media", "resize exif webp"),
    q("config", "core", "override dotenv precedence"),
    q("feature", "flags", "rollout cohort percentage"),
    q("payment", "billing", "refund card chargeback"),
    q("shipping", "orders", "carrier parcel tracking"),
    q("inventory", "warehouse", "stock sku reorder"),
    q("geo", "maps", "latitude polygon geocode"),
    q("pdf", "reports", "margin font pagination"),
    q("calendar", "scheduling", "recurrence attendee invite"),
    q("chat", "messaging", "mention emoji typing"),
    q("metrics", "observability", "histogram counter gauge"),
    q("query", "db", "predicate alias projection"),
    q("migration", "db", "rollback schema column"),
    q("oauth", "auth", "scope redirect consent"),
    q("tenant", "accounts", "subdomain isolation provisioning"),
    q("pricing", "billing", "tier seat proration"),
    q("survey", "forms", "likert respondent branching"),
    q("dashboard", "ui", "chart drilldown layout"),
    q("notification", "notify", "digest badge mute"),
    q("keyboard", "ui", "shortcut hotkey modifier"),
    q("clipboard", "editor", "paste selection mime"),
    q("sitemap", "seo", "lastmod canonical robots"),
    q("backup", "ops", "snapshot restore encryption"),
    q("podcast", "media", "episode feed enclosure"),
    q("weather", "widgets", "forecast humidity station"),
  ],
  heads: [
    h("parser", "parse", "token grammar"),
    h("exporter", "export", "row streaming"),
    h("limiter", "throttle", "window refill"),
    h("policy", "apply", "exemption allowlist"),
    h("toggle", "toggle", "persistence indicator"),
    h("validator", "validate", "constraint violation"),
    h("formatter", "format", "padding placeholder"),
    h("cache", "lookup", "eviction ttl"),
    h("serializer", "serialize", "envelope versioning"),
    h("scheduler", "dispatch", "lease backlog"),
    h("client", "request", "timeout pooling"),
    h("importer", "ingest", "mapping dedupe"),
    h("renderer", "render", "escaping partial"),
    h("resolver", "resolve", "cycle candidate"),
    h("builder", "build", "preset chaining"),
    h("helper", "normalize", "rounding whitespace"),
    h("middleware", "intercept", "passthrough ordering"),
    h("migrator", "migrate", "batch checkpoint"),
    h("uploader", "send", "progress resumable"),
    h("watcher", "watch", "debounce polling"),
    h("picker", "pick", "dropdown highlight"),
    h("widget", "mount", "tooltip skeleton"),
    h("modal", "show", "overlay backdrop"),
    h("sanitizer", "sanitize", "entity stripping"),
    h("mapper", "map", "nullable projection"),
    h("encoder", "encode", "base64 charset"),
    h("generator", "generate", "slug prefix"),
    h("reporter", "report", "threshold breakdown"),
    h("tracker", "track", "attribution funnel"),
    h("store", "persist", "hydration selector"),
    h("queue", "enqueue", "consumer deadletter"),
    h("worker", "process", "concurrency heartbeat"),
    h("linter", "lint", "suggestion autofix"),
    h("converter", "convert", "unit precision"),
    h("loader", "load", "lazy manifest"),
    h("indexer", "reindex", "shard analyzer"),
    h("notifier", "notify", "channel cooldown"),
    h("fetcher", "fetch", "etag cursor"),
    h("adapter", "adapt", "handshake shim"),
    h("wizard", "advance", "stepper prefill"),
  ],
  /** Documentation components: their file is a Markdown page, their "symbols" its section titles. */
  docsHeads: [
    h("guide", "document", "prerequisite screenshot"),
    h("tutorial", "document", "walkthrough snippet"),
    h("runbook", "document", "escalation oncall"),
    h("faq", "document", "glossary crosslink"),
  ],
} as const;
