// The playground in a real browser (`cargo xtask web --test`): load the page from a local static
// server, paste a ps_2_0 and a vs_3_0 program, check the listing and the WGSL, feed a broken blob
// and check that the error names its token, check the preview's pixels when the browser offers
// WebGPU (and the page's plain message when it does not), and keep a screenshot.
//
//   node browser.mjs SITE_DIR|URL SCREENSHOT_DIR
//
// `cargo xtask web --test` passes the URL of its own static server (the one `--serve` runs); a
// folder is served here. With REQUIRE_GPU=1 (CI) a browser without WebGPU fails the test: Debian's
// Chromium ships SwiftShader, a CPU Vulkan, so the preview can always be checked there.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { launch, serve } from "./chromium.mjs";

const [site, shots] = process.argv.slice(2);
if (!site || !shots) {
  console.error("usage: node browser.mjs SITE_DIR|URL SCREENSHOT_DIR");
  process.exit(2);
}

// ps_2_0: c0 is the colour; the preview's constants field sets it to (1, 0.5, 0.25, 1).
const PS = `ps_2_0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
mov r1, c0
mov oC0, r1
`;
const VS = `vs_3_0
dcl_position v0
dcl_texcoord v1
dcl_position o0
dcl_texcoord o1
m4x4 o0, v0, c0
mov o1, v1
`;
const FLAT = `ps_2_0
mov oC0, c0
`;
// ps_2_0, then `add` whose destination token (token 2) has 8 in its result-shift field, which
// no version defines: the decoder refuses it there.
const BROKEN = Buffer.from(new Uint32Array([0xffff0200, 0x03000002, 0xf80f0000, 0x80e40000, 0x80e40000, 0x0000ffff]).buffer);

let failures = 0;
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures++;
}

const server = /^https?:/.test(site) ? { url: site, close() {} } : await serve(site);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on("pageerror", (e) => check(false, "no page error", e.message));
  page.on("console", (m) => m.type() === "error" && check(false, "no console error", m.text()));
  page.on("requestfailed", (r) => check(false, "every request answered", `${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(server.url);
  await page.waitForFunction(() => window.playground?.ready === true, null, { timeout: 30000 });
  const settle = () => page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 200));
    await window.playground.done;
  });
  const text = (selector) => page.locator(selector).innerText();
  const paste = async (program) => {
    await page.fill("#source", program);
    await settle();
  };

  await paste(PS);
  const listing = await text("#out-listing");
  check(listing.includes("texld r0, t0, s0"), "ps_2_0: the listing holds the texld", listing.split("\n")[3]);
  const wgsl = await page.locator("#out-wgsl").textContent();
  check(/@fragment\s+fn ps_main/.test(wgsl), "ps_2_0: the WGSL holds the fragment entry point");
  check(!(await page.locator("#status").getAttribute("class"))?.includes("error"), "ps_2_0: no error", await text("#status"));

  await paste(VS);
  const vsWgsl = await page.locator("#out-wgsl").textContent();
  check(/@vertex\s+fn vs_main/.test(vsWgsl), "vs_3_0: the WGSL holds the vertex entry point");
  check((await text("#out-listing")).includes("m4x4 o0, v0, c0"), "vs_3_0: the listing holds the m4x4");

  await page.setInputFiles("#file", { name: "broken.pso", mimeType: "application/octet-stream", buffer: BROKEN });
  await settle();
  const diagnostics = await text("#diagnostics");
  check(/token 2\b/.test(diagnostics), "broken blob: the error names token 2", diagnostics);

  await page.fill("#constants", "c0 = 1, 0.5, 0.25, 1");
  await paste(FLAT);
  const gpu = await text("#gpu-status");
  const hasGpu = await page.evaluate(() => window.playground.preview.device != null);
  if (hasGpu) {
    // (1, 0.5, 0.25, 1) in an 8-bit target: 255, 127.5 → 128 (or 127), 63.75 → 64, 255.
    const pixel = await page.evaluate(() => window.playground.preview.pixel(128, 128));
    const near = (a, b) => Math.abs(a - b) <= 1;
    const want = [255, 128, 64, 255];
    check(pixel && pixel.every((v, i) => near(v, want[i])), "preview: the centre pixel is c0", JSON.stringify(pixel));
    check(/drawn with/.test(gpu), "preview: the status says it drew", gpu);
    const adapter = await page.evaluate(() => window.playground.preview.adapterName ?? "");
    console.log(`webgpu: available (adapter: ${adapter || "unnamed"}; ${gpu})`);
  } else {
    check(/WebGPU is unavailable/.test(gpu), "no WebGPU: the page says so", gpu);
    check(process.env.REQUIRE_GPU !== "1", "WebGPU in Chromium (REQUIRE_GPU=1)", "none: the preview went unchecked");
    console.log("webgpu: unavailable in this browser");
  }
  await paste(PS);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: join(shots, "playground.png"), fullPage: true });
  console.log(`screenshot: ${join(shots, "playground.png")}`);
} finally {
  await browser.close();
  server.close();
}
console.log(`browser: ${failures === 0 ? "passed" : `${failures} failed`}`);
process.exit(failures === 0 ? 0 : 1);
