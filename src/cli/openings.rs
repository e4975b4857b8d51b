//! `skald openings` (not yet implemented).

use anyhow::{Result, bail};

/// Arguments of `skald openings`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `skald openings`.
pub fn run(_args: Args) -> Result<()> {
    bail!("not implemented yet")
}
