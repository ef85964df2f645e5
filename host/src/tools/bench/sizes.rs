//! `kosumi bench sizes`: the memory the core's types take in this build,
//! which depends on the largest board size compiled in (`--features size9`
//! and so on). Firmware budgets and `BENCHMARKS.md` quote these figures.

use std::mem::{align_of, size_of};

use kosumi_core::board::Board;
use kosumi_core::geometry::{MAX_POINTS, MAX_SIZE};
use kosumi_core::table::{BestMoveCluster, DepthCluster, TacticCluster};
use kosumi_core::tactics::{NoStorage, Reader};

/// Arguments of `kosumi bench sizes`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// Print the sizes.
///
/// # Errors
/// None; the signature matches the other benchmarks.
pub fn run(args: &Args) -> Result<(), String> {
    let rows: Vec<(&str, usize, usize)> = vec![
        ("Board", size_of::<Board>(), align_of::<Board>()),
        (
            "tactics::Reader (journal included)",
            size_of::<Reader<'static, NoStorage>>(),
            align_of::<Reader<'static, NoStorage>>(),
        ),
        (
            "DepthCluster",
            size_of::<DepthCluster>(),
            align_of::<DepthCluster>(),
        ),
        (
            "BestMoveCluster",
            size_of::<BestMoveCluster>(),
            align_of::<BestMoveCluster>(),
        ),
        (
            "TacticCluster",
            size_of::<TacticCluster>(),
            align_of::<TacticCluster>(),
        ),
    ];
    if args.json {
        let mut obj = serde_json::json!({
            "max_size": MAX_SIZE,
            "points_per_array": MAX_POINTS,
        });
        for (name, size, align) in &rows {
            obj[*name] = serde_json::json!({ "size": size, "align": align });
        }
        println!("{obj}");
        return Ok(());
    }
    println!("kosumi bench sizes: build for boards up to {MAX_SIZE}x{MAX_SIZE} ({MAX_POINTS} cells per array)");
    for (name, size, align) in rows {
        println!("  {name:<36} {size:>8} bytes  (align {align})");
    }
    Ok(())
}
