//! `kosumi bench table`: the clustered table against the seed's rehash table.
//!
//! For each size (L1, L2, L3 and `--mb`), both tables get the same memory
//! and the same keys: first they are filled with random keys to 50% and then
//! 100% of the rehash table's slot count (= the clustered table's entry
//! count for 8-byte entries), then a stream of probes is timed in which
//! half the keys were stored before and half are fresh; a miss stores.
//! Two timings: *serial*, where each probe completes before the next starts
//! (`lfence`), as in a search that needs the answer before it goes on: the
//! latency a caller sees, and the headline figure; and *independent*, where
//! the out-of-order core may overlap the misses of consecutive probes
//! (throughput). Key streams are built before timing; small tables
//! are restored from a snapshot between repetitions so the stream does not
//! wash the fill out.

use std::hint::black_box;
use std::time::Instant;

use kosumi_core::table::{
    clusters_in, BestMove, BestMoveCluster, Bound, Cluster, DepthCluster, Entry, SliceTable,
    Tactic, TacticCluster, Winner,
};
use serde_json::json;

mod rehash;

use rehash::Rehash;

/// Entry kind of the clustered table under test.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntryKind {
    /// The seed's 8-byte entry: 48 check bits, 16-bit depth; 4 per 32 bytes.
    #[default]
    Depth,
    /// The MCTS best-move entry: 8 bytes, 8 per 64 bytes.
    BestMove,
    /// The tactical cache entry: 10 bytes, 3 per 32 bytes.
    Tactic,
}

/// Arguments of `kosumi bench table`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Size of the largest table in MiB (rounded down to a power of two).
    #[arg(long, default_value_t = 1024)]
    pub mb: usize,
    /// Entry kind of the clustered table.
    #[arg(long, value_enum, default_value_t = EntryKind::Depth)]
    pub entry: EntryKind,
    /// Timed probes per table, size and fill rate.
    #[arg(long, default_value_t = 2_000_000)]
    pub probes: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            mb: 1024,
            entry: EntryKind::Depth,
            probes: 2_000_000,
            json: false,
        }
    }
}

/// Cache-level sizes always measured below `--mb`.
const SMALL_SIZES: [(usize, &str); 3] = [(16 << 10, "L1"), (256 << 10, "L2"), (8 << 20, "L3")];

/// Fill rates measured, as a fraction of the slot count.
const FILLS: [f64; 2] = [0.5, 1.0];

/// Return splitmix64's output for state `z` (a stateless mixer).
fn mix(z: u64) -> u64 {
    let mut z = z
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x2545_F491_4F6C_DD1D);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Mixer input bit that keeps fresh keys apart from the fill keys' inputs.
const FRESH: u64 = 1 << 63;

/// Return the `i`-th key of the fill stream.
fn fill_key(i: u64) -> u64 {
    mix(i)
}

/// Return a depth in 1..=64 that belongs to `key`.
fn depth_of(key: u64) -> u16 {
    ((key >> 24) & 63) as u16 + 1
}

/// A clustered entry kind the benchmark can drive.
trait BenchCluster: Cluster {
    /// Return the payload stored for `key`.
    fn payload(key: u64) -> <Self::Entry as Entry>::Data;
}

impl BenchCluster for DepthCluster {
    fn payload(key: u64) -> u16 {
        depth_of(key)
    }
}

impl BenchCluster for BestMoveCluster {
    fn payload(key: u64) -> BestMove {
        BestMove::new(
            (key >> 40) as u16 % 362,
            1 << (key >> 24 & 31),
            u32::from(depth_of(key)),
        )
    }
}

impl BenchCluster for TacticCluster {
    fn payload(key: u64) -> Tactic {
        let b = Bound::new(Winner::Black, (depth_of(key) - 1) as u8).unwrap_or_default();
        Tactic {
            alpha: b,
            beta: b,
            mv: (key >> 40) as u16,
        }
    }
}

/// Wait until every earlier instruction has completed, so that the next
/// probe cannot overlap this one's cache misses (x86 `lfence`; elsewhere
/// only a memory fence, which orders but may not serialize).
#[inline(always)]
fn serialize() {
    // SAFETY: `lfence` needs SSE2, which every x86_64 processor has.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_lfence();
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// One contender: how its storage is laid out and how a key stream runs on it.
trait Contender {
    type Slot: Copy;
    fn slots(bytes: usize) -> usize;
    fn empty() -> Self::Slot;
    /// Probe (and store on a miss) every key; return the number of hits.
    fn run<const SERIAL: bool>(buf: &mut [Self::Slot], keys: impl Iterator<Item = u64>) -> u64;
}

struct Clustered<C>(std::marker::PhantomData<C>);

impl<C: BenchCluster> Contender for Clustered<C> {
    type Slot = C;
    fn slots(bytes: usize) -> usize {
        clusters_in::<C>(bytes)
    }
    fn empty() -> C {
        C::EMPTY
    }
    fn run<const SERIAL: bool>(buf: &mut [C], keys: impl Iterator<Item = u64>) -> u64 {
        let mut t = SliceTable::new(buf).expect("power-of-two cluster count");
        let mut hits = 0u64;
        for key in keys {
            let p = t.probe(key);
            if p.data.is_some() {
                hits += 1;
            } else {
                t.store(p.slot, C::payload(key));
            }
            if SERIAL {
                serialize();
            }
        }
        black_box(hits)
    }
}

struct Rehashed;

impl Contender for Rehashed {
    type Slot = u64;
    fn slots(bytes: usize) -> usize {
        let n = bytes / 8;
        if n == 0 {
            0
        } else {
            1 << n.ilog2()
        }
    }
    fn empty() -> u64 {
        0
    }
    fn run<const SERIAL: bool>(buf: &mut [u64], keys: impl Iterator<Item = u64>) -> u64 {
        let mut t = Rehash::new(buf);
        let mut hits = 0u64;
        for key in keys {
            hits += u64::from(t.probe_store(key, depth_of(key)));
            if SERIAL {
                serialize();
            }
        }
        black_box(hits)
    }
}

/// Timing of one contender at one size and fill rate.
#[derive(Clone, Copy, Debug, Default)]
struct Measure {
    ns_per_probe: f64,
    ns_per_probe_independent: f64,
    hit_rate: f64,
}

/// Return the timed probe stream for a table holding fill keys `0..inserted`.
fn probe_stream(inserted: u64, len: usize, salt: u64) -> Vec<u64> {
    (0..len as u64)
        .map(|j| {
            let r = mix(j ^ salt.rotate_left(32));
            if r & 1 == 0 && inserted > 0 {
                fill_key((r >> 1) % inserted)
            } else {
                mix(FRESH | salt << 32 | j)
            }
        })
        .collect()
}

/// Fill `buf` from `from` to `to` fill keys, then time `stream` on it.
fn measure<T: Contender>(
    buf: &mut [T::Slot],
    from: u64,
    to: u64,
    stream: &[u64],
    reps: usize,
) -> Measure {
    T::run::<false>(buf, (from..to).map(fill_key));
    // Every timed pass starts from the filled table: the stream stores its
    // misses, and a second pass over the same stream would hit them.
    let snapshot = buf.to_vec();
    let mut time = |serial: bool| {
        let (mut ns, mut hits) = (0u128, 0u64);
        for _ in 0..reps {
            buf.copy_from_slice(&snapshot);
            let start = Instant::now();
            hits += if serial {
                T::run::<true>(buf, stream.iter().copied())
            } else {
                T::run::<false>(buf, stream.iter().copied())
            };
            ns += start.elapsed().as_nanos();
        }
        let probes = (reps * stream.len()) as f64;
        (ns as f64 / probes, hits as f64 / probes)
    };
    let (independent, _) = time(false);
    let (serial, hit_rate) = time(true);
    // Leave the table as filled, not as the last stream left it.
    buf.copy_from_slice(&snapshot);
    Measure {
        ns_per_probe: serial,
        ns_per_probe_independent: independent,
        hit_rate,
    }
}

/// Results at one table size.
struct SizeRow {
    bytes: usize,
    label: String,
    clustered: [Measure; 2],
    rehash: [Measure; 2],
    clustered_hashfull: u32,
}

/// Measure both contenders at `bytes`.
/// Return `n` copies of `value` in memory advised for transparent huge
/// pages before its first touch (both tables alike), so a probe into a
/// 1 GiB table pays a DRAM miss, not a 4 KiB page walk as well, as
/// Stockfish's large-page allocation does. Linux only; elsewhere a plain
/// `Vec`.
fn huge_page_vec<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut buf: Vec<T> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (buf.as_mut_ptr() as usize).next_multiple_of(HUGE);
        let end = (buf.as_mut_ptr() as usize + n * std::mem::size_of::<T>()) / HUGE * HUGE;
        if end > start {
            // SAFETY: [start, end) lies inside the allocation `buf` owns
            // (its capacity), aligned to the huge page size; madvise only
            // gives the kernel a hint and changes no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    buf.resize(n, value);
    buf
}

fn run_size<C: BenchCluster>(bytes: usize, label: String, probes: usize) -> SizeRow {
    let slots = Rehashed::slots(bytes) as u64;
    // The stream stores fresh keys; keep it to 1/8 of the table and repeat.
    let per_rep = probes.min((slots / 8).max(1) as usize);
    let reps = probes.div_ceil(per_rep);
    let targets = FILLS.map(|f| (f * slots as f64) as u64);
    let streams = targets.map(|t| probe_stream(t, per_rep, t));

    let mut clustered = [Measure::default(); 2];
    let mut buf = huge_page_vec(Clustered::<C>::slots(bytes), Clustered::<C>::empty());
    let mut from = 0;
    for (i, &to) in targets.iter().enumerate() {
        clustered[i] = measure::<Clustered<C>>(&mut buf, from, to, &streams[i], reps);
        from = to;
    }
    let clustered_hashfull = SliceTable::new(&mut buf[..])
        .map(|t| t.hashfull(0))
        .unwrap_or(0);
    drop(buf);

    let mut rehash = [Measure::default(); 2];
    let mut buf = huge_page_vec(Rehashed::slots(bytes), Rehashed::empty());
    let mut from = 0;
    for (i, &to) in targets.iter().enumerate() {
        rehash[i] = measure::<Rehashed>(&mut buf, from, to, &streams[i], reps);
        from = to;
    }
    SizeRow {
        bytes,
        label,
        clustered,
        rehash,
        clustered_hashfull,
    }
}

/// Return a size in bytes as "16 KiB", "8 MiB", "1 GiB".
fn human(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b => format!("{} KiB", b >> 10),
    }
}

/// Run the table benchmark.
///
/// # Errors
/// Returns a message if `--mb` is 0 or `--probes` is 0.
pub fn run(args: &Args) -> Result<(), String> {
    if args.mb == 0 || args.probes == 0 {
        return Err("bench table: --mb and --probes must be positive".into());
    }
    let top = 1usize << args.mb.ilog2() << 20;
    let mut sizes: Vec<(usize, String)> = SMALL_SIZES
        .iter()
        .filter(|(b, _)| *b < top)
        .map(|(b, l)| (*b, (*l).to_string()))
        .collect();
    sizes.push((top, "mem".to_string()));
    let rows: Vec<SizeRow> = sizes
        .into_iter()
        .map(|(bytes, label)| match args.entry {
            EntryKind::Depth => run_size::<DepthCluster>(bytes, label, args.probes),
            EntryKind::BestMove => run_size::<BestMoveCluster>(bytes, label, args.probes),
            EntryKind::Tactic => run_size::<TacticCluster>(bytes, label, args.probes),
        })
        .collect();
    let kind = format!("{:?}", args.entry).to_lowercase();
    if args.json {
        print_json(&rows, &kind, args.probes);
    } else {
        print_human(&rows, &kind);
    }
    Ok(())
}

fn print_human(rows: &[SizeRow], kind: &str) {
    println!(
        "kosumi bench table: clustered ({kind}) vs rehash (8-byte, {} probes), equal memory",
        rehash::PROBES
    );
    println!(
        "ns/probe serial (each probe completes before the next, lfence) | independent; hit rate"
    );
    println!(
        "{:>9} {:>4} {:>5} | {:>16} {:>6} | {:>16} {:>6} | {:>5} {:>5}",
        "size", "", "fill", "clustered ns", "hit%", "rehash ns", "hit%", "ratio", "indep"
    );
    for row in rows {
        for (i, fill) in FILLS.iter().enumerate() {
            let (c, r) = (row.clustered[i], row.rehash[i]);
            println!(
                "{:>9} {:>4} {:>4.0}% | {:>7.1} | {:>6.1} {:>5.1}% | {:>7.1} | {:>6.1} {:>5.1}% | {:>5.2} {:>5.2}",
                human(row.bytes),
                row.label,
                fill * 100.0,
                c.ns_per_probe,
                c.ns_per_probe_independent,
                c.hit_rate * 100.0,
                r.ns_per_probe,
                r.ns_per_probe_independent,
                r.hit_rate * 100.0,
                r.ns_per_probe / c.ns_per_probe,
                r.ns_per_probe_independent / c.ns_per_probe_independent,
            );
        }
    }
    if let Some(last) = rows.last() {
        println!(
            "clustered hashfull at 100% fill ({}): {} permille",
            human(last.bytes),
            last.clustered_hashfull
        );
    }
}

fn print_json(rows: &[SizeRow], kind: &str, probes: usize) {
    let m = |x: Measure| {
        json!({
            "ns_per_probe": x.ns_per_probe,
            "ns_per_probe_independent": x.ns_per_probe_independent,
            "hit_rate": x.hit_rate,
        })
    };
    let sizes: Vec<_> = rows
        .iter()
        .flat_map(|row| {
            FILLS.iter().enumerate().map(move |(i, fill)| {
                json!({
                    "bytes": row.bytes,
                    "fill": fill,
                    "clustered": m(row.clustered[i]),
                    "rehash": m(row.rehash[i]),
                    "ratio": row.rehash[i].ns_per_probe / row.clustered[i].ns_per_probe,
                })
            })
        })
        .collect();
    let last = rows.last().expect("at least one size");
    let (c, r) = (last.clustered[1], last.rehash[1]);
    let out = json!({
        "entry": kind,
        "bytes": last.bytes,
        "probes": probes,
        "clustered_ns_per_probe": c.ns_per_probe,
        "rehash_ns_per_probe": r.ns_per_probe,
        "clustered_hit_rate": c.hit_rate,
        "rehash_hit_rate": r.hit_rate,
        "ratio": r.ns_per_probe / c.ns_per_probe,
        "clustered_ns_per_probe_independent": c.ns_per_probe_independent,
        "rehash_ns_per_probe_independent": r.ns_per_probe_independent,
        "ratio_independent": r.ns_per_probe_independent / c.ns_per_probe_independent,
        "clustered_hashfull": last.clustered_hashfull,
        "sizes": sizes,
    });
    println!("{out}");
}
