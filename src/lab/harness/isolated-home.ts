import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../kit/package-root.js";

/** Private XDG directories for one OpenCode server, so runs never see the user's setup. */
export interface IsolatedHome {
  root: string;
  configDir: string;
  env: Record<string, string>;
}

/**
 * Creates XDG data/config/cache/state dirs under `root` and writes `config` as the global
 * opencode.json (and `tui` as tui.json), in a config dir prepared so that OpenCode does not
 * npm-install into it.
 */
export async function createIsolatedHome(options: {
  root: string;
  config: Record<string, unknown>;
  /** The global tui.json (where the TUI finds its plug-ins), if any. */
  tui?: Record<string, unknown>;
}): Promise<IsolatedHome> {
  const xdg = await xdgDirsUnder(options.root);
  const configDir = join(xdg.XDG_CONFIG_HOME, "opencode");
  await prepareConfigDir(configDir);
  await writeFile(join(configDir, "opencode.json"), JSON.stringify(options.config, null, 2));
  if (options.tui) await writeFile(join(configDir, "tui.json"), JSON.stringify(options.tui, null, 2));
  return {
    root: options.root,
    configDir,
    env: {
      ...xdg,
      HOME: options.root,
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      // A run inside a checkout of this repository would otherwise pick up its opencode.json.
      OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
    },
  };
}

/**
 * Gives an OpenCode config dir (the global one, or a project's `.opencode/`) a node_modules
 * that already holds our pinned @opencode-ai/plugin and a lockfile that says so: OpenCode
 * npm-installs it into every config dir before loading plug-ins, which stalls offline.
 */
export async function prepareConfigDir(configDir: string): Promise<void> {
  await mkdir(join(configDir, "node_modules", "@opencode-ai"), { recursive: true });
  const own = join(packageRoot(), "node_modules", "@opencode-ai");
  // Recreating a home (a restarted server) keeps its data and replaces the links.
  await Promise.all(
    ["plugin", "sdk"].map(async (name) => {
      const link = join(configDir, "node_modules", "@opencode-ai", name);
      await rm(link, { force: true });
      await symlink(join(own, name), link, "dir");
    }),
  );
  // OpenCode skips its install when every dependency is listed in the lockfile's root.
  const dependencies = { "@opencode-ai/plugin": "1.18.33" };
  await writeFile(join(configDir, "package.json"), JSON.stringify({ dependencies }, null, 2));
  await writeFile(join(configDir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, requires: true, packages: { "": { dependencies } } }, null, 2));
}

/** The four XDG base directories under `root`, made: what every OpenCode line reads its config, data, cache and state from. */
export async function xdgDirsUnder(root: string): Promise<{ XDG_DATA_HOME: string; XDG_CONFIG_HOME: string; XDG_CACHE_HOME: string; XDG_STATE_HOME: string }> {
  const xdg = {
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_STATE_HOME: join(root, "state"),
  };
  await Promise.all(Object.values(xdg).map((dir) => mkdir(dir, { recursive: true })));
  return xdg;
}
