//! `skald analyze` (not yet implemented).

use anyhow::{Result, bail};

/// Arguments of `skald analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `skald analyze`.
pub fn run(_args: Args) -> Result<()> {
    bail!("not implemented yet")
}
