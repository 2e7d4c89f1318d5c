// node.js: the same API as d3d9_shader_web.js, the module already instantiated.
export * from "./d3d9_shader_web.js";
export { default } from "./d3d9_shader_web.js";
