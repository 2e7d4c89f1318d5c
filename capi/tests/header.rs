//! include/d3d9_shader.h is what cbindgen makes of the sources today: regenerates it and fails
//! when it differs from the checked-in header (`UPDATE_HEADER=1` writes the new one instead).

use std::path::Path;

#[test]
fn the_checked_in_header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("capi/cbindgen.toml reads");
    let bindings =
        cbindgen::Builder::new().with_crate(dir).with_config(config).generate().expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include/d3d9_shader.h");
    if std::env::var("UPDATE_HEADER").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write include/d3d9_shader.h");
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "capi/include/d3d9_shader.h is not what cbindgen makes of capi/src: run \
         `UPDATE_HEADER=1 cargo test --release -p d3d9-shader-capi --test header` and commit it"
    );
}
