import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { opencode2Binary } from "../../harness/opencode-2-server.js";
import { opencodeBinary } from "../../harness/opencode-binary.js";
import { UNRECORDED_HOST } from "../run-dir/experiment.js";

/** Which OpenCode runs a bench's sessions: 1.18 (its SDK client) or 2.0 (its `/api` server). */
export const BENCH_HOSTS = ["opencode-1", "opencode-2"] as const;
export type BenchHost = (typeof BENCH_HOSTS)[number];
export const DEFAULT_BENCH_HOST: BenchHost = "opencode-1";

const HOST_NAMES: Record<BenchHost, string> = { "opencode-1": "OpenCode 1.18", "opencode-2": "OpenCode 2" };

function isBenchHost(value: string): value is BenchHost {
  return (BENCH_HOSTS as readonly string[]).includes(value);
}

/** A setting's host: the recorded one, or OpenCode 1.18 for a run made before the field was kept. */
export function settingHost(setting: { host?: string | undefined }): string {
  return setting.host ?? UNRECORDED_HOST;
}

/** The version the host's binary reports (`opencode --version`: "1.18.33", "opencode v2.0.15" gives "2.0.15"); `environment` may name the binary. */
export async function hostVersion(host: BenchHost, environment?: Readonly<Record<string, string | undefined>>): Promise<string> {
  const binary = host === "opencode-2" ? opencode2Binary(environment) : opencodeBinary(environment);
  // A scratch home: asking the version must not touch the user's OpenCode dirs.
  const home = await mkdtemp(join(tmpdir(), "rcm-host-version-"));
  const xdg = {
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_STATE_HOME: join(home, "state"),
  };
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, ...xdg, OPENCODE_DISABLE_AUTOUPDATE: "1" };
  const { stdout } = await promisify(execFile)(binary, ["--version"], { timeout: 60_000, env }).finally(() => rm(home, { recursive: true, force: true }));
  const version = /\d+\.\d+\.\d+\S*/.exec(stdout)?.[0];
  if (version === undefined) throw new Error(`${binary} --version printed no version: ${stdout.trim().slice(0, 200)}`);
  return version;
}

/** Which OpenCode ran the sessions, as "OpenCode 2 (2.0.15), `--host opencode-2`" (a run from before it was recorded: OpenCode 1.18). */
export function hostLabel(setting: { host?: string | undefined; host_version?: string | undefined }): string {
  const host = settingHost(setting);
  const name = isBenchHost(host) ? HOST_NAMES[host] : host;
  const version = setting.host_version === undefined ? "" : ` (${setting.host_version})`;
  return `${name}${version}, \`--host ${host}\``;
}

/** One line for a report: `Host: <hostLabel>.` */
export function describeHost(setting: { host?: string | undefined; host_version?: string | undefined }): string {
  return `Host: ${hostLabel(setting)}.`;
}
