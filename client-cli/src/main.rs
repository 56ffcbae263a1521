//! `athlas`: the Athlas terminal client.

use clap::Parser;

/// mimalloc rather than glibc's malloc: a bot allocates for every frame it
/// reads.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = athlas_client::cli::Cli::parse();
    athlas_client::cli::run(cli).await
}
