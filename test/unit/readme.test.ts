import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";

// The README is the user's short guide; the rest is in docs/. What a newcomer runs from it and
// where its links lead must stay true as text moves between the two.

const ROOT = packageRoot();

async function markdownFiles(): Promise<string[]> {
  const docs = await readdir(join(ROOT, "docs"), { recursive: true });
  return ["README.md", ...docs.filter((file) => file.endsWith(".md")).map((file) => join("docs", file))];
}

/** The document without its fenced blocks (a link-like text in a code block is no link). */
function prose(doc: string): string {
  return doc.replace(/^```[\s\S]*?^```$/gm, "");
}

/** GitHub's anchors of the document's headings. */
function anchors(doc: string): Set<string> {
  return new Set(
    [...prose(doc).matchAll(/^#+ (.+)$/gm)].map(([, heading = ""]) =>
      heading
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("the README", () => {
  it("gives the two set-up and test commands .ci/run runs, and the main command", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    const ci = await readFile(join(ROOT, ".ci", "run"), "utf8");
    for (const command of ["bash scripts/setup.sh", "npm test"]) {
      expect(ci).toContain(command);
      expect(readme.split("\n").some((line) => line.startsWith(`${command} `) && line.slice(command.length).trimStart().startsWith("#"))).toBe(true);
    }
    expect(readme).toMatch(/^npm run bench:mini +#/m);
  });

  it("says how to make the tarball it installs, and which OpenCode lines work", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm ci && npm pack");
    const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string; engines: { opencode: string } };
    expect(readme).toContain(`opencode-rcm-${manifest.version}.tgz`);
    expect(readme).toMatch(/\*\*OpenCode 1\.18\*\* works/);
    expect(readme).toMatch(/\*\*OpenCode 2\.0\.x\*\* works: tested on 2\.0\.15/);
    expect(manifest.engines.opencode).toBe(">=1.18.33 <2 || >=2.0.15 <2.1");
  });

  it("starts with the install, whose first row is the tarball that works, and offers no registry install while the package is unpublished (issue 48)", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme.match(/^## .+$/m)?.[0]).toBe("## Install into OpenCode");
    const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    const rows = readme.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
    const installRows = rows.slice(rows.findIndex((line) => line.startsWith("| You install it")) + 1);
    expect(installRows[0]).toContain(`npm i -D /path/to/opencode-rcm-${manifest.version}.tgz`);
    expect(readme).not.toMatch(/npm i (-D|-g) opencode-rcm\b(?!-)/);
    expect(readme).toContain("not on the npm registry yet");
    // Where a person reading the log looks first: the troubleshooting section says the ERROR line is expected.
    expect(readme).toMatch(/## Troubleshooting\n[\s\S]*CommandAnswered: expected, not a failure/);
  });

  it("stays short: the rest is in docs/", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(260);
  });
});

describe("links in the README and docs/", () => {
  it("lead to files that exist and headings that are there", async () => {
    const broken: string[] = [];
    for (const file of await markdownFiles()) {
      const doc = await readFile(join(ROOT, file), "utf8");
      for (const [, target = ""] of prose(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?|mailto):/.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const resolved = path === "" ? join(ROOT, file) : join(ROOT, dirname(file), path);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${relative(ROOT, resolved)})`);
        else if (anchor && resolved.endsWith(".md") && !anchors(await readFile(resolved, "utf8")).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
