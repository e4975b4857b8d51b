//! `skald play` (not yet implemented).

use anyhow::{Result, bail};

/// Arguments of `skald play`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `skald play`.
pub fn run(_args: Args) -> Result<()> {
    bail!("not implemented yet")
}
