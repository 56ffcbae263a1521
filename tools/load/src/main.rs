//! `athlas-load`: the load generator, apart from the players' `athlas`.

use clap::Parser;

/// mimalloc rather than glibc's malloc: the load generator allocates for
/// every frame it reads, and its own CPU per action is part of the figure.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    athlas_load::cli::run(athlas_load::cli::LoadArgs::parse()).await
}
