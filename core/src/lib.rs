//! kosumi-core: a `no_std`, allocation-free Go engine.
//!
//! # How to read this crate
//! The core never allocates and owns no global state it did not get from its
//! caller: storage, time budget and random seed come from outside. Read it
//! bottom-up:
//!
//! | module | what it is |
//! |---|---|
//! | [`geometry`] | points, colours, the padded board layout, GTP vertices, `MAX_SIZE` |
//! | [`zobrist`] | compile-time Zobrist keys (stones, ko point, side to move) |
//! | [`board`] | the board: chains, pseudo-liberties, captures, ko, hashing, diagrams, area score |
//! | [`history`] | a ring of position hashes for positional superko |
//! | [`rng`] | caller-seeded randomness, identical on 32- and 64-bit targets |
//! | [`shape`] | 3x3 shape patterns (Michi's hane, cuts, edge moves) as a compile-time bitset over neighbourhood codes |
//! | [`eye_shape`] | the killing eye shapes and their vital points (the owl's eye values, the playouts' nakade) |
//! | [`playout`] | light, waterfall and heavy playouts (with Pachi's two-liberty and nakade checks) with per-rule statistics |
//! | [`table`] | clustered hash tables sized at compile time or over a caller's buffer |
//! | [`lent`] | storage a caller lends at run time, or none yet (an engine of zero bytes in a `static`) |
//! | [`tactics`] | the tactical reader (capture / save a chain: a search core, the attack and defend nodes with their candidate generators), connection reading (connect / disconnect two chains: a search core, its candidates, shortest paths) and the region-keyed cache they share; life and death of a dragon (the owl, a first step: a local search over a static eye count) |
//! | [`pattern`] | move patterns learned from game records (Coulom's Bradley-Terry model): features, spatial hashes, the model file, the gammas of a move |
//! | [`search`] | MCTS: UCT-RAVE over a fixed node pool, priors (with the shape patterns), best-move table, iterative deepening |
//! | [`game`] | the game layer the host's and the firmware's GTP share: the record with undo and superko, the clock and the time a move may take, dead stones and the final score, the move `genmove` plays around a search (fall-backs, resignation) |
//! | [`gtp`] | the Go Text Protocol the host and the firmware share: lines in, answers out, the session with the standard commands, and the engine of the heap-less embeddings over caller-given storage |
//!
//! # Who builds on it
//! Imports go one way, towards this crate: the desktop engine (crate
//! `kosumi` in `host/`: its GTP engine and analysis protocol, with the
//! tools on top) puts its own searcher under [`gtp::Session`]; the
//! firmware (`embedded/`) and the browser module (`wasm/`) each give
//! [`gtp::PoolEngine`] storage, a clock and a seed and put it under the
//! session;
//! the game database (crate `kosumi-db`) replays games on [`board`]; the
//! SGF reader (crate `kosumi-sgf`) uses [`geometry`]'s colours.
//!
//! # Features
//! - `size9` / `size13` / `size19` (default): the largest board the build
//!   supports; arrays are sized for it.
//! - `stats`: count what playout rules and tables do.
//! - `fights` (default): Pachi's two-liberty and nakade checks in the
//!   heavy playouts (off at run time unless asked for; off on the firmware).
//! - `defmt`: `defmt::Format` for the core's types (firmware logging).
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod eye_shape;
pub mod game;
pub mod geometry;
pub mod gtp;
pub mod history;
pub mod lent;
pub mod pattern;
pub mod playout;
pub mod rng;
pub mod search;
pub mod shape;
pub mod table;
pub mod tactics;
pub mod zobrist;
