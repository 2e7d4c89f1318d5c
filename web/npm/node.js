// The package's entry point under Node.js: the WebAssembly module read from beside this file and
// instantiated at import, so that `load` and `translatePair` work at once (in a browser the
// entry point is d3d9_shader_web.js, whose default export `init()` fetches the module).
import { readFileSync } from "node:fs";
import { initSync } from "./d3d9_shader_web.js";

initSync({ module: readFileSync(new URL("./d3d9_shader_web_bg.wasm", import.meta.url)) });

export * from "./d3d9_shader_web.js";
export { default } from "./d3d9_shader_web.js";
