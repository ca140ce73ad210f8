import type { SecretSpan } from "./spans.js";

/**
 * Credentials their owners published as documentation samples: nobody's secret, so sending
 * them to the aux model leaks nothing. Exact strings only, never a prefix or a pattern (a
 * real `pk_live_...` key is publishable but names its account, and stays redacted); secretlint
 * ignores the first AWS pair too, gitleaks allows AWS's `...EXAMPLE` ids, trufflehog drops
 * unverified findings that contain "example".
 */
const PUBLISHED_SAMPLES = [
  // AWS's documented key pairs (IAM user guide, `aws configure` examples).
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "AKIAI44QH8DHBEXAMPLE",
  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
  // jwt.io's sample token (HS256, signed with "your-256-bit-secret").
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk5yJV_adQssw5c",
  // Stripe's API reference keys (its own demo account).
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "pk_test_TYooMQauvdEDq54NiTphI7jx",
  // Sentry's documented DSN.
  "https://examplePublicKey@o0.ingest.sentry.io/0",
];

/** `spans` without those that lie inside a published sample (a span that reaches past one stays). */
export function withoutPublishedSamples(text: string, spans: readonly SecretSpan[]): SecretSpan[] {
  // Per span, not per text: spans are few, and most texts hold no sample at all.
  return spans.filter((span) => !PUBLISHED_SAMPLES.some((sample) => insideSample(text, span, sample)));
}

function insideSample(text: string, span: SecretSpan, sample: string): boolean {
  if (span.end - span.start > sample.length || !sample.includes(text.slice(span.start, span.end))) return false;
  const at = text.indexOf(sample, Math.max(0, span.end - sample.length));
  return at >= 0 && at <= span.start;
}
