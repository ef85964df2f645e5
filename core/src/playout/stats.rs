//! Per-rule playout statistics, in the shape of the seed's tables.
//!
//! The counters exist in every build so callers compile either way, but
//! they are only incremented with the `stats` feature: without it the
//! [`count!`] macro expands to nothing.

/// What each playout rule did, summed over playouts.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RuleStats {
    /// Playouts played.
    pub playouts: u64,
    /// Moves chosen (passes included).
    pub moves: u64,
    /// Rule 1: the last move put one of the mover's chains in atari.
    pub new_ataris: u64,
    /// Rule 1a: saved by capturing an adjacent chain.
    pub atari_captures: u64,
    /// Rule 1b: an extension was looked at.
    pub atari_extend_tries: u64,
    /// Rule 1b: the extension gave two or more liberties and was played.
    pub atari_extends: u64,
    /// Rule 2: the dice said to look for a capture.
    pub capture_tries: u64,
    /// Rule 2: an enemy chain in atari was found.
    pub captures_found: u64,
    /// Rule 2: the capture was worthwhile and played.
    pub captures_played: u64,
    /// Heavy policy: moves answering the last move with a shape pattern.
    pub pattern_moves: u64,
    /// Heavy policy: random moves refused as self-atari.
    pub self_atari_rejects: u64,
    /// Heavy policy with replies: last good replies played.
    pub reply_moves: u64,
    /// Heavy policy with a ladder reader: escapes from atari refused
    /// because a ladder catches them.
    pub ladder_escapes_refused: u64,
    /// Heavy policy with a ladder reader: ataris that catch the last
    /// move's chain, and extensions out of a ladder, played.
    pub ladder_moves: u64,
    /// Heavy policy: moves of the two-liberty check (ataris, extensions,
    /// counter-ataris in a fight next to the last move).
    pub two_liberty_moves: u64,
    /// Heavy policy: vital points of killing eye shapes (nakade).
    pub nakade_moves: u64,
    /// Rule 3: random moves (passes excluded).
    pub random: u64,
    /// Passes: no acceptable move was left.
    pub passes: u64,
}

impl RuleStats {
    /// All counters zero, usable in a `const` context.
    pub const ZERO: RuleStats = RuleStats {
        playouts: 0,
        moves: 0,
        new_ataris: 0,
        atari_captures: 0,
        atari_extend_tries: 0,
        atari_extends: 0,
        capture_tries: 0,
        captures_found: 0,
        captures_played: 0,
        pattern_moves: 0,
        self_atari_rejects: 0,
        reply_moves: 0,
        ladder_escapes_refused: 0,
        ladder_moves: 0,
        two_liberty_moves: 0,
        nakade_moves: 0,
        random: 0,
        passes: 0,
    };

    /// Add another set of counters to these.
    pub fn add(&mut self, o: &RuleStats) {
        self.playouts += o.playouts;
        self.moves += o.moves;
        self.new_ataris += o.new_ataris;
        self.atari_captures += o.atari_captures;
        self.atari_extend_tries += o.atari_extend_tries;
        self.atari_extends += o.atari_extends;
        self.capture_tries += o.capture_tries;
        self.captures_found += o.captures_found;
        self.captures_played += o.captures_played;
        self.pattern_moves += o.pattern_moves;
        self.self_atari_rejects += o.self_atari_rejects;
        self.reply_moves += o.reply_moves;
        self.ladder_escapes_refused += o.ladder_escapes_refused;
        self.ladder_moves += o.ladder_moves;
        self.two_liberty_moves += o.two_liberty_moves;
        self.nakade_moves += o.nakade_moves;
        self.random += o.random;
        self.passes += o.passes;
    }

    /// Query whether the counters were compiled in.
    pub const fn enabled() -> bool {
        cfg!(feature = "stats")
    }
}

/// Increment a counter when the `stats` feature is on; nothing otherwise.
macro_rules! count {
    ($stats:ident . $field:ident) => {{
        #[cfg(feature = "stats")]
        {
            $stats.$field += 1;
        }
        #[cfg(not(feature = "stats"))]
        {
            let _ = &$stats;
        }
    }};
}
pub(crate) use count;
