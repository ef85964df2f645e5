//! The `kosumi` binary's tools, apart from the engine (the library): they
//! use it as any client would.
//!
//! | module | what it is |
//! |---|---|
//! | [`bench`] | `kosumi bench ...`: the benchmarks and the fuzzer |
//! | [`book`] | `kosumi book`: an opening book for read-only memory, made by deep searches |
//! | [`matchrun`] | `kosumi match`: two GTP engines play a match, scored by a referee |
//! | [`gtp_client`] | the GTP client `match` and the benchmarks drive engines with |
//! | [`patterns`] | `kosumi patterns train/test`: the move-pattern learner |
//! | [`pool`] | `kosumi pool`: the firmware's engine as a GTP engine on the host, to measure its play |

pub mod bench;
pub mod book;
pub mod gtp_client;
pub mod matchrun;
pub mod patterns;
pub mod pool;
