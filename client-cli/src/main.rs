//! `athlas`: the Athlas terminal client.

use clap::Parser;

/// mimalloc rather than glibc's malloc: `athlas load` allocates for every
/// frame it reads, and its own CPU per action is part of the figure.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = athlas_client::cli::Cli::parse();
    athlas_client::cli::run(cli).await
}
