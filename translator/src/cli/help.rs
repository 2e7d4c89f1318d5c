//! `--help` of the subcommands whose own files print only a usage line: the usage, what the
//! command does, and examples.

/// The help text of `command`, if this module has one.
pub fn text(command: &str) -> Option<&'static str> {
    Some(match command {
        "disasm" => {
            "\
usage: d3d9-shader disasm INPUT [--keep-comments]

Prints the assembly listing of INPUT (a blob, .hex, fxc header or listing; - for stdin).
  --keep-comments   write comment blocks as .comment/.dw lines, so the listing assembles to the exact blob

examples:
  d3d9-shader disasm shader.pso
  d3d9-shader disasm shader.pso --keep-comments > shader.asm"
        }
        "asm" => {
            "\
usage: d3d9-shader asm INPUT [-o OUT]

Assembles a listing (or re-encodes any input format) into tokens: raw little-endian for OUT
ending in .bin, .pso or .vso, hex words for .hex; without -o the hex words go to stdout.

examples:
  d3d9-shader asm shader.asm -o shader.pso
  echo 'ps_2_0 mov oC0, c0' | d3d9-shader asm -"
        }
        "validate" => {
            "\
usage: d3d9-shader validate INPUT [--strict|--lenient] [--api d3d9|d3d8] [--swvp]

Checks INPUT against the Direct3D 9 runtime's rules. --strict refuses everything Windows
refuses; --lenient (the default) turns what drivers accept into warnings. Each message names
the rule, the instruction and its token offset. Exit status 0 valid, 1 invalid, 2 usage error.

examples:
  d3d9-shader validate shader.pso --strict
  d3d9-shader validate old.vso --api d3d8"
        }
        "run" => {
            "\
usage: d3d9-shader run INPUT [--input v0=1,2,3,4]... [--const c0=...]... [--int i0=...]...
                             [--bool b0=true|false]... [--float-rules strict|fast|ieee] [--json]

Runs one invocation of INPUT in the CPU reference interpreter and prints every output register
it wrote. Values with fewer than four components expand as a vertex element does (1,2 is
1, 2, 0, 1). A pixel shader runs as a 2x2 quad of equal inputs; lane 0 is printed.

examples:
  d3d9-shader run shader.vso --input v0=1,2,3 --const c0=1,0,0,0 --const c1=0,1,0,0
  d3d9-shader run shader.pso --input t0=0.5,0.5 --json"
        }
        _ => return None,
    })
}
