//! The kosumi engine on a desktop: the GTP engine and KataGo's JSON
//! analysis protocol over `kosumi-core`, with the storage, threads, files
//! and clocks only a host has.
//!
//! The `kosumi` binary puts its tools on top of this library (`main.rs`,
//! [`tools`](../kosumi/tools/index.html) in the binary: benchmarks, the match
//! runner, the pattern learner) and the game database beside it (crate
//! `kosumi-db`). Imports go one way: binary → tools → engine → core; the
//! engine never reaches up.
//!
//! | module | what it is |
//! |---|---|
//! | [`gtp`] | `kosumi gtp`: the GTP engine (the core's session over the host's search) |
//! | [`analysis`] | `kosumi analysis`: KataGo's JSON analysis protocol (a subset) |
//! | [`policy`] | the playout policies by the names `--playout` and `--policy` accept |
//! | [`atomic`] | files written whole or not at all (books, models) |
//! | [`memory`] | allocations sized from outside, made fallibly |

pub mod analysis;
pub mod atomic;
pub mod gtp;
pub mod memory;
pub mod policy;
