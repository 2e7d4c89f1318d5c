use d3d9_shader::bytecode::decode;
use d3d9_tests::{parse_hex, shared_dir, hex_files};
#[test]
fn stats() {
    let dir = shared_dir().unwrap().join("bench-corpus");
    let mut rows = vec![];
    for f in hex_files(&dir) {
        let p = decode(&parse_hex(&std::fs::read_to_string(&f).unwrap()).unwrap()).unwrap();
        if p.version.is_sm1() { continue; }
        let t = d3d9_shader::translate(&p, &Default::default()).unwrap();
        let ep = &t.module.entry_points[0].function;
        let mut exprs = ep.expressions.len();
        let mut stmts = 0;
        fn count(b: &naga::Block, n: &mut usize, emits: &mut usize) { for s in b.iter() { *n += 1; match s { naga::Statement::Emit(_) => *emits += 1, naga::Statement::If{accept, reject, ..} => { count(accept, n, emits); count(reject, n, emits);} naga::Statement::Loop{body, continuing, ..} => { count(body, n, emits); count(continuing, n, emits);} naga::Statement::Block(b) => count(b, n, emits), _ => {} } } }
        let mut emits = 0;
        count(&ep.body, &mut stmts, &mut emits);
        for (_, f) in t.module.functions.iter() { exprs += f.expressions.len(); count(&f.body, &mut stmts, &mut emits); }
        rows.push((exprs, stmts, emits, p.instructions.len(), f.file_name().unwrap().to_string_lossy().to_string()));
    }
    rows.sort();
    let n = rows.len();
    for r in [&rows[0], &rows[n/4], &rows[n/2], &rows[3*n/4], &rows[n-1]] { eprintln!("{:?}", r); }
}
