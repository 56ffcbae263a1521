//! `athlas`: the Athlas terminal client.

use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = athlas_client::cli::Cli::parse();
    athlas_client::cli::run(cli).await
}
