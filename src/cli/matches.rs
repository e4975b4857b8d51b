//! `skald matches` (not yet implemented).

use anyhow::{Result, bail};

/// Arguments of `skald matches`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `skald matches`.
pub fn run(_args: Args) -> Result<()> {
    bail!("not implemented yet")
}
