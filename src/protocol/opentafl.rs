//! The OpenTafl Engine Protocol (OTEP), spoken by `skald opentafl` (not yet implemented).

use super::Output;
use std::io::BufRead;

/// Runs the OTEP loop on `input` until `goodbye` or end of input.
pub fn run(_input: &mut dyn BufRead, out: Output) {
    out.line("hello");
    out.line("error -1 not implemented yet");
}
