import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { MODES, ROUTERS } from "../config/options-schema.js";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/project.json`: which worktree a project's state belongs to. The plug-in writes
 * it when it loads; the CLI reads it to find a directory's sessions without knowing how
 * OpenCode names projects.
 */
/** The options the server part ran with (the opencode.json tuple included, which the CLI cannot see). */
const ProjectSettingsSchema = z.object({ mode: z.enum(MODES), router: z.enum(ROUTERS), confidenceThreshold: z.number().min(0).max(1) });
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

const ProjectFileSchema = z.object({
  projectID: z.string().min(1),
  worktree: z.string().min(1),
  /** Directories OpenCode served this project from (a monorepo's packages, say). */
  directories: z.array(z.string().min(1)),
  /** As of the latest server start in the project. */
  settings: ProjectSettingsSchema.optional(),
});
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

const PROJECT_FILE_VERSION = 1;

export function projectFile(stateDir: string) {
  return versionedJsonFile({
    path: join(stateDir, "project.json"),
    version: PROJECT_FILE_VERSION,
    schema: ProjectFileSchema,
    empty: () => ({ projectID: "unknown", worktree: "/", directories: [] }),
  });
}

/** Notes the project's worktree, this directory and the options in force; writes only what changed. */
export async function noteProject(
  stateDir: string,
  project: { projectID: string; worktree: string; directory: string; settings: ProjectSettings },
): Promise<void> {
  const file = projectFile(stateDir);
  const known = await file.peek();
  const directories = known.status === "loaded" ? known.value.directories : [];
  const settings = ProjectSettingsSchema.parse(project.settings);
  const same =
    known.status === "loaded" &&
    known.value.worktree === project.worktree &&
    directories.includes(project.directory) &&
    JSON.stringify(known.value.settings) === JSON.stringify(settings);
  if (same) return;
  await file.save({
    projectID: project.projectID,
    worktree: project.worktree,
    directories: [...new Set([...directories, project.directory])].sort(),
    settings,
  });
}

/** Every project under `<root>` (the default state root) with its state dir. */
export async function knownProjects(root: string): Promise<Array<ProjectFile & { stateDir: string }>> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const projects: Array<ProjectFile & { stateDir: string }> = [];
  for (const name of names.sort()) {
    const stateDir = join(root, name);
    const read = await projectFile(stateDir).peek();
    if (read.status === "loaded") projects.push({ ...read.value, stateDir });
    else if (read.status === "missing" && (await hasSessions(stateDir))) projects.push({ projectID: name, worktree: "?", directories: [], stateDir });
  }
  return projects;
}

async function hasSessions(stateDir: string): Promise<boolean> {
  try {
    return (await readdir(join(stateDir, "sessions"))).some((name) => name.endsWith(".json"));
  } catch {
    return false;
  }
}
