//! kosumi-core: a `no_std`, allocation-free Go engine.
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod table;
