//! The Athlas load harness, its own crate so that players do not ship it:
//! [`load`] (N matches or Divinity parties played by bots over real
//! sockets, with the soak and the idle connections) and [`cli`] (its
//! command line). It plays through the terminal client's library
//! (`athlas_client`: the link, the player's frame reading, the bots).

pub mod cli;
pub mod load;
