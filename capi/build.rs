//! Gives the shared library a SONAME on Linux (`libd3d9_shader_capi.so.0`), so that programs
//! linked with it keep working when a later compatible version is installed beside it.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libd3d9_shader_capi.so.0");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
