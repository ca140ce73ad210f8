import type { Page } from "playwright-core";

// These run inside the page. They are strings because the project's TypeScript has no DOM
// library (it targets Node and OpenCode's Bun), and adding one would hide mistakes in src.

/** How many elements matching each selector have drawn geometry (a non-empty box). */
export function countDrawn(page: Page, selectors: Record<string, string>): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const selectors = ${JSON.stringify(selectors)};
    const counts = {};
    for (const [name, selector] of Object.entries(selectors)) {
      counts[name] = [...document.querySelectorAll(selector)].filter((mark) => {
        const box = mark.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      }).length;
    }
    return counts;
  })()`);
}

/** Decodes a PNG in the page and counts the pixels within 8 of each "#rrggbb" colour, plus the total. */
export function countColours(page: Page, png: Buffer, colours: Record<string, string>): Promise<Record<string, number>> {
  return page.evaluate(`(async () => {
    const colours = ${JSON.stringify(colours)};
    const image = new Image();
    image.src = "data:image/png;base64,${png.toString("base64")}";
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    const counts = { total: image.width * image.height };
    for (const [name, hex] of Object.entries(colours)) {
      const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
      let n = 0;
      for (let at = 0; at < data.length; at += 4) {
        if (Math.abs(data[at] - r) < 8 && Math.abs(data[at + 1] - g) < 8 && Math.abs(data[at + 2] - b) < 8) n += 1;
      }
      counts[name] = n;
    }
    return counts;
  })()`);
}
