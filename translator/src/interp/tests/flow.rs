//! Flow control: every form, the loop rules, the step limit and malformed structure.

use super::*;

const ONES: &str = "def c0, 0, 0, 0, 0\ndef c1, 1, 1, 1, 1\ndef c2, 2, 2, 2, 2\n";

#[test]
fn static_if_else() {
    let p = |b: bool| format!("vs_2_0\n{ONES}defb b0, {b}\nif b0\nmov r0, c1\nelse\nmov r0, c2\nendif\nmov oPos, r0");
    assert_eq!(pos(&p(true)), [1.0; 4]);
    assert_eq!(pos(&p(false)), [2.0; 4]);
    // `if !b0`.
    let p = format!("vs_2_0\n{ONES}defb b0, true\nmov r0, c0\nif !b0\nmov r0, c1\nendif\nmov oPos, r0");
    assert_eq!(pos(&p), [0.0; 4]);
}

#[test]
fn ifc_and_predicated_if() {
    // if_lt 1 < 2 → then; if_ge → else; if_ne with NaN → then.
    let p = |cmp: &str| format!("vs_2_x\n{ONES}if_{cmp} c1.x, c2.x\nmov r0, c1\nelse\nmov r0, c2\nendif\nmov oPos, r0");
    assert_eq!(pos(&p("lt")), [1.0; 4]);
    assert_eq!(pos(&p("ge")), [2.0; 4]);
    assert_eq!(pos(&p("eq")), [2.0; 4]);
    let nan = format!("vs_2_x\n{ONES}rcp r1, c0.x\nadd r1, r1, -r1\nmov r0, c0\nif_ne r1.x, c0.x\nmov r0, c1\nendif\nmov oPos, r0");
    assert_eq!(pos(&nan), [1.0; 4]);
    // if p0.y after setp_gt (2 > 1 in y only).
    let p = format!("vs_2_x\n{ONES}def c3, 0, 2, 0, 0\nsetp_gt p0, c3, c1\nmov r0, c0\nif p0.y\nmov r0, c2\nendif\nmov oPos, r0");
    assert_eq!(pos(&p), [2.0; 4]);
    let p = format!("vs_2_x\n{ONES}def c3, 0, 2, 0, 0\nsetp_gt p0, c3, c1\nmov r0, c0\nif !p0.x\nmov r0, c2\nendif\nmov oPos, r0");
    assert_eq!(pos(&p), [2.0; 4]);
}

#[test]
fn loop_counter_start_and_step() {
    // i0 = (4, 10, -3): aL = 10, 7, 4, 1; sum = 22.
    let p = format!("vs_2_0\n{ONES}defi i0, 4, 10, -3, 0\nmov r0, c0\nloop aL, i0\nadd r0, r0, aL\nendloop\nmov oPos, r0");
    assert_eq!(pos(&p), [22.0; 4]);
    // Step 0: aL stays at 5 for 3 iterations → 15.
    let p = format!("vs_2_0\n{ONES}defi i0, 3, 5, 0, 0\nmov r0, c0\nloop aL, i0\nadd r0, r0, aL\nendloop\nmov oPos, r0");
    assert_eq!(pos(&p), [15.0; 4]);
    // Count 0 runs nothing; a negative count too.
    let p = format!("vs_2_0\n{ONES}defi i0, 0, 5, 1, 0\nmov r0, c0\nloop aL, i0\nadd r0, r0, c1\nendloop\nmov oPos, r0");
    assert_eq!(pos(&p), [0.0; 4]);
    let p = format!("vs_2_0\n{ONES}defi i0, -4, 5, 1, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nendrep\nmov oPos, r0");
    assert_eq!(pos(&p), [0.0; 4]);
}

#[test]
fn loop_and_rep_counts_are_capped_at_255() {
    // Count 1000 from the API runs 255 times.
    let mut c = floats(&[(1, [1.0; 4])]);
    c.int[0] = [1000, 0, 1, 0];
    let p = "vs_2_0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nendrep\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [255.0; 4]);
    let p = "vs_2_0\nmov r0, c0\nloop aL, i0\nadd r0, r0, c1\nendloop\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [255.0; 4]);
}

#[test]
fn nested_loops_use_the_innermost_loop_counter_and_rep_keeps_it() {
    // Outer aL = 0, 1; inner aL = 10, 20: sum of inner aL = 2·30 = 60; after the inner loop the
    // outer aL is back: sum of outer aL over 2 iterations = 1. rep inside keeps aL.
    let p = format!(
        "vs_2_0\n{ONES}defi i0, 2, 0, 1, 0\ndefi i1, 2, 10, 10, 0\ndefi i2, 1, 0, 0, 0\nmov r0, c0\nmov r1, c0\nmov r2, c0\n\
         loop aL, i0\nloop aL, i1\nadd r0, r0, aL\nendloop\nadd r1, r1, aL\nrep i2\nadd r2, r2, aL\nendrep\nendloop\n\
         mov oPos.x, r0.x\nmov oPos.y, r1.x\nmov oPos.zw, r2.x"
    );
    assert_eq!(pos(&p), [60.0, 1.0, 1.0, 1.0]);
}

#[test]
fn break_breakc_breakp() {
    // rep 10 with break after the first add → 1.
    let p = format!("vs_2_x\n{ONES}defi i0, 10, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nbreak\nendrep\nmov oPos, r0");
    assert_eq!(pos(&p), [1.0; 4]);
    // breakc_ge r0.x, 3: adds 1 until r0.x ≥ 3 → 3.
    let p = format!(
        "vs_2_x\n{ONES}def c3, 3, 3, 3, 3\ndefi i0, 10, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nbreak_ge r0.x, c3.x\nendrep\nmov oPos, r0"
    );
    assert_eq!(pos(&p), [3.0; 4]);
    // breakp p0.x with p0 = (r0 ≥ 2).
    let p = format!(
        "vs_2_x\n{ONES}defi i0, 10, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nsetp_ge p0, r0, c2\nbreakp p0.x\nendrep\nmov oPos, r0"
    );
    assert_eq!(pos(&p), [2.0; 4]);
    // A break leaves only the innermost loop: outer 3 × (inner adds once, breaks) = 3.
    let p = format!(
        "vs_2_x\n{ONES}defi i0, 3, 0, 0, 0\ndefi i1, 5, 0, 0, 0\nmov r0, c0\nrep i0\nrep i1\nadd r0, r0, c1\nbreak\nendrep\nendrep\nmov oPos, r0"
    );
    assert_eq!(pos(&p), [3.0; 4]);
}

#[test]
fn call_callnz_label_ret() {
    // call l1 adds 1 twice; callnz l2 only when b0; subroutines follow the main ret.
    let p = |b: bool| {
        format!(
            "vs_2_0\n{ONES}defb b0, {b}\nmov r0, c0\ncall l1\ncall l1\ncallnz l2, b0\nmov oPos, r0\nret\n\
             label l1\nadd r0, r0, c1\nret\nlabel l2\nadd r0, r0, c2\nret"
        )
    };
    assert_eq!(pos(&p(false)), [2.0; 4]);
    assert_eq!(pos(&p(true)), [4.0; 4]);
    // callnz with a predicate (vs_2_x), and with !b0.
    let p = format!(
        "vs_2_x\n{ONES}defb b0, true\nsetp_gt p0, c1, c0\nmov r0, c0\ncallnz l1, p0.x\ncallnz l1, !b0\nmov oPos, r0\nret\n\
         label l1\nadd r0, r0, c1\nret"
    );
    assert_eq!(pos(&p), [1.0; 4]);
    // ret inside an if ends the subroutine early.
    let p = format!(
        "vs_2_x\n{ONES}defb b0, true\nmov r0, c0\ncall l1\nmov oPos, r0\nret\nlabel l1\nif b0\nadd r0, r0, c1\nret\nendif\nadd r0, r0, c2\nret"
    );
    assert_eq!(pos(&p), [1.0; 4]);
}

#[test]
fn ret_in_main_still_produces_outputs() {
    // Early ret in main inside an if: oPos written before it is kept, later writes never happen.
    let p = format!("vs_2_x\n{ONES}defb b0, true\nmov oPos, c1\nif b0\nret\nendif\nmov oPos, c2");
    assert_eq!(pos(&p), [1.0; 4]);
}

#[test]
fn recursion_and_hostile_loops_end_with_errors() {
    // A subroutine that calls itself: call depth error, not a stack overflow.
    let p = asm("vs_2_0\ncall l0\nret\nlabel l0\ncall l0\nret");
    let e = run_vertex(&p, &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler).unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::CallDepth);
    // 255 × 255 × 255 iterations exceed a small step limit.
    let p = asm("vs_2_0\ndefi i0, 255, 0, 1, 0\nrep i0\nrep i0\nrep i0\nadd r0, r0, r0\nendrep\nendrep\nendrep\nmov oPos, r0");
    let o = Options { step_limit: 10_000, ..Options::default() };
    let e = run_vertex(&p, &VertexInput::default(), &Constants::default(), &o, &UnboundSampler).unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::StepLimit(10_000));
    assert!(e.instruction > 0);
    // Unbalanced structure is an error naming the instruction.
    for (text, idx) in [("vs_2_0\nendif", 0), ("vs_2_0\nmov r0, c0\nif b0\nmov r0, c0", 1), ("vs_2_0\nrep i0\nendloop", 0)] {
        let e = run_vertex(&asm(text), &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
            .unwrap_err();
        assert!(matches!(e.kind, InterpErrorKind::Unbalanced(_)), "{text}: {e}");
        assert_eq!(e.instruction, idx, "{text}");
    }
    // A call to an undefined label (accepted by the assembler) runs nothing.
    assert_eq!(pos("vs_2_0\ndef c0, 1, 2, 3, 4\nmov oPos, c0\ncall l3"), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn divergent_flow_in_a_pixel_quad() {
    // Each lane takes its own branch of if_gt v0.x, 0.5 and its own loop exit.
    let p = asm(
        "ps_3_0\ndcl_texcoord0 v0\ndef c0, 0.5, 0, 1, 2\ndefi i0, 10, 0, 1, 0\n\
         if_gt v0.x, c0.x\nmov r0, c0.z\nelse\nmov r0, c0.w\nendif\n\
         mov r1, c0.y\nloop aL, i0\nbreak_ge r1.x, v0.y\nadd r1, r1, c0.z\nendloop\nmov r0.y, r1.x\nmov oC0, r0",
    );
    let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
        let mut i = PixelInput::default();
        i.v[0] = [lane as f32 * 0.25, lane as f32, 0.0, 0.0];
        i
    });
    let out = run_pixel_quad(&p, &inputs, &Constants::default(), &Options::default(), &UnboundSampler).unwrap();
    // Lane k: v0.x = k/4 → only lane 3 (0.75) > 0.5 picks 1, others 2; the loop counts to v0.y = k.
    for (k, o) in out.iter().enumerate() {
        let c = o.color[0].unwrap();
        assert_eq!(c[0], if k == 3 { 1.0 } else { 2.0 }, "lane {k}");
        assert_eq!(c[1], k as f32, "lane {k}");
    }
}

#[test]
fn deepest_nesting_inside_deepest_recursion_fails_cleanly() {
    // A subroutine that nests 30 `if`s and calls itself: the call-depth limit ends it with an
    // error before the host stack is at risk (the test thread has the default 2 MiB stack).
    let mut text = String::from("vs_2_0\ndefb b0, true\ncall l0\nret\nlabel l0\n");
    text.push_str(&"if b0\n".repeat(30));
    text.push_str("call l0\n");
    text.push_str(&"endif\n".repeat(30));
    text.push_str("ret");
    let e = run_vertex(&asm(&text), &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
        .unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::CallDepth);
    // Deeper than MAX_NESTING blocks: an error at parse time.
    let mut text = String::from("vs_2_0\n");
    text.push_str(&"if b0\n".repeat(MAX_NESTING + 2));
    text.push_str(&"endif\n".repeat(MAX_NESTING + 2));
    let e = run_vertex(&asm(&text), &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
        .unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::NestingTooDeep);
}
