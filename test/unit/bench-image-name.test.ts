import { describe, expect, it } from "vitest";
import { imageFor } from "../../src/lab/bench/env/image-name.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";

const task = { instance_id: "django__django-11099", repo: "django/django" } as Task;

describe("the image a task runs in", () => {
  it("is SWE-bench's Docker Hub name for the instance by default", () => {
    expect(imageFor(task)).toBe("swebench/sweb.eval.x86_64.django_1776_django-11099:latest");
  });

  it("is the task's own image when it names one", () => {
    expect(imageFor({ ...task, image: "registry.local/django:11099" })).toBe("registry.local/django:11099");
  });

  it("is the --image template, filled, over both", () => {
    expect(imageFor({ ...task, image: "x" }, "mirror.local/{repo}:{instance_id}")).toBe("mirror.local/django/django:django__django-11099");
  });
});
