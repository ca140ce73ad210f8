import { appendFile, readdir, readFile, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { runFiles } from "./run-files.js";

/**
 * What a finished run keeps: what its report, a rerun, `bench score` and a reader of the
 * evidence need (results.jsonl, run.json, the reports, each session's patch, scoring report and
 * stored history, the plug-in's state, the model requests). The scratch goes: the run's temp
 * files always, and unless `keep`, the OpenCode homes (they hold nothing a report reads) and
 * the model-request logs' plain text, which are gzipped (a resumed run appends to a new plain
 * log; the next tidy appends it to the .gz as another member).
 */
export async function tidyRunDir(outDir: string, options: { keep: boolean }): Promise<void> {
  const files = runFiles(outDir);
  await rm(files.tmp, { recursive: true, force: true });
  if (options.keep) return;
  await rm(files.homes, { recursive: true, force: true });
  const logs = await readdir(files.requests).catch(() => [] as string[]);
  for (const name of logs.filter((candidate) => candidate.endsWith(".jsonl"))) {
    const plain = join(files.requests, name);
    await appendFile(`${plain}.gz`, gzipSync(await readFile(plain)));
    await unlink(plain);
  }
}

/** A model-request log as text, plain or gzipped (`tidyRunDir`): the plain part follows the gzipped one. */
export async function readRequestLog(file: string): Promise<string> {
  const packed = await readFile(`${file}.gz`).then(
    (bytes) => gunzipSync(bytes).toString("utf8"),
    () => "",
  );
  const plain = await readFile(file, "utf8").catch(() => "");
  return packed + plain;
}

/** Bytes of every file under `dir`. */
export async function diskUsage(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await diskUsage(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
