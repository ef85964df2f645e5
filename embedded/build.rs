//! Put the chosen board's `memory.x` where `cortex-m-rt`'s `link.x` finds it.

use std::{env, fs, path::PathBuf};

fn main() {
    let board = if env::var_os("CARGO_FEATURE_MPS2_AN386").is_some() {
        "mps2-an386"
    } else if env::var_os("CARGO_FEATURE_STM32F411").is_some() {
        "stm32f411"
    } else if env::var_os("CARGO_FEATURE_RP2040").is_some() {
        "rp2040"
    } else {
        "lm3s6965"
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let src = format!("boards/{board}.x");
    fs::copy(&src, out.join("memory.x")).expect("copy memory.x");
    fs::copy("boards/budget.x", out.join("budget.x")).expect("copy budget.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed={src}");
    println!("cargo:rerun-if-changed=boards/budget.x");
    println!("cargo:rerun-if-changed=build.rs");
}
