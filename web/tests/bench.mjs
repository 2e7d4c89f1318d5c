// The browser half of `cargo xtask web --bench`: translate every shader of a list in Chromium,
// round-robin, and print {"wgsl": µs, "spirv": µs}: a round's time divided by its shaders,
// median over rounds (the first round, which warms up, left out), as the native half does.
//
//   node bench.mjs SITE_DIR FILES.json ROUNDS

import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { launch, serve } from "./chromium.mjs";

const [site, list, rounds] = process.argv.slice(2);
const paths = JSON.parse(await readFile(list, "utf8"));
const files = await Promise.all(paths.map(async (p) => ({ name: basename(p), bytes: [...(await readFile(p))] })));

const server = await serve(site);
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.playground?.ready === true, null, { timeout: 30000 });
  const result = await page.evaluate(async ({ files, rounds }) => {
    const { load } = await import("./pkg/d3d9_shader_web.js");
    const inputs = files.map((f) => ({ name: f.name, bytes: new Uint8Array(f.bytes) }));
    const time = (emit) => {
      const perShader = [];
      for (let r = 0; r <= rounds; r++) {
        const start = performance.now();
        for (const f of inputs) {
          const shader = load(f.bytes, { name: f.name });
          const t = shader.translate({});
          emit(t);
          t.free();
          shader.free();
        }
        perShader.push(((performance.now() - start) * 1000) / inputs.length);
      }
      perShader.shift();
      perShader.sort((a, b) => a - b);
      return perShader[perShader.length >> 1];
    };
    return { wgsl: time((t) => t.wgsl()), spirv: time((t) => t.spirv()) };
  }, { files, rounds: Number(rounds) });
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  server.close();
}
