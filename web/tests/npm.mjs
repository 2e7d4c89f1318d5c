// The npm package of `cargo xtask web` (its pkg/ folder) packed with `npm pack`, installed from
// the tarball into an empty project in a temporary folder, and used from Node.js: a shader
// loaded and translated, and the key's constants baked. Run by `cargo xtask web --test`:
//
//   node npm.mjs PKG_DIR
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// What the installed package must do. The ps_2_0 writes c0 to oC0: a fragment entry point that
// reads the constant buffer. The vs_3_0 reads b1 (`if b1`): baked TRUE, the branch's `add` is
// in the code without a read of the boolean buffer, so the WGSL differs from the default's.
const USE = `
import { load, translatePair } from "d3d9-shader";
const check = (ok, what) => { if (!ok) { console.error("use: " + what); process.exit(1); } };
const ps = load("ps_2_0\\nmov oC0, c0\\n");
check(ps.stage === "pixel" && ps.version === "ps_2_0" && ps.valid, "the pixel shader loads");
const wgsl = ps.translate().wgsl();
check(wgsl.includes("@fragment"), "a fragment entry point:\\n" + wgsl);
check(new Uint32Array(ps.translate().spirv())[0] === 0x07230203, "the SPIR-V magic number");
const vs = load("vs_3_0\\ndcl_position v0\\ndcl_position o0\\nmov r0, v0\\nif b1\\nadd r0, r0, v0\\nendif\\nmov o0, r0\\n");
const plain = vs.translate().wgsl();
const baked = vs.translate({ deliver: { bool_constants: "baked" }, bool_constants: 2 }).wgsl();
check(plain !== baked, "baking b1 changes the code");
check(vs.translate({ deliver: { bool_constants: "baked" }, bool_constants: 2 }).wgsl() === baked, "the same key, the same code");
try { ps.translate({ deliver: { fog: "sometimes" } }); check(false, "a bad delivery throws"); }
catch (e) { check(e.kind === "key", "a bad delivery is a key error: " + e.message); }
const [v, p] = translatePair(load("vs_3_0\\ndcl_position v0\\ndcl_position o0\\nmov o0, v0\\n"), load("ps_3_0\\nmov oC0, c0\\n"));
check(v.wgsl().includes("@vertex") && p.wgsl().includes("@fragment"), "a pair translates");
console.log("use: load, translate (keys, constants), spirv and translatePair work from the tarball");
`;

const pkg = resolve(process.argv[2] ?? "../../target/web/pkg");
const tmp = mkdtempSync(join(tmpdir(), "d3d9-shader-npm-"));
const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

function fail(message) {
  console.error(`npm: FAILED: ${message}`);
  process.exitCode = 1;
}

try {
  // The tarball holds the module, its JavaScript glue, the TypeScript declarations, a README and
  // the licence files.
  const [packed] = JSON.parse(npm(["pack", pkg, "--json", "--pack-destination", tmp], tmp));
  const files = packed.files.map((f) => f.path);
  for (const want of ["package.json", "README.md", "d3d9_shader_web_bg.wasm", "d3d9_shader_web.js", "d3d9_shader_web.d.ts", "node.js", "LICENSE-MIT", "LICENSE-APACHE"]) {
    if (!files.includes(want)) fail(`the tarball lacks ${want} (has ${files.join(", ")})`);
  }
  const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
  if (!/^\d+\.\d+\.\d+/.test(version)) fail(`package.json's version is "${version}"`);

  // An empty project installs it from the tarball alone (it has no dependencies: no registry).
  const app = join(tmp, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  npm(["install", "--offline", "--no-audit", "--no-fund", join(tmp, packed.filename)], app);
  writeFileSync(join(app, "use.mjs"), USE);
  const out = execFileSync("node", ["use.mjs"], { cwd: app, encoding: "utf8" });
  process.stdout.write(out);
  console.log(`npm: ${packed.filename} (${packed.size} bytes, ${files.length} files) installs and translates`);
} catch (e) {
  fail(e.message);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
