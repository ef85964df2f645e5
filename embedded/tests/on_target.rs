//! On-target tests (`defmt-test`): the firmware's parts checked where they
//! run, on the chip (QEMU's lm3s6965evb under `cargo test`; a board with a
//! probe through its `probe-rs` runner), with the firmware's own statics,
//! clock and stack. What the host's tests cannot see from the UART: the
//! clock's reads across SysTick periods, the opening book read in place
//! from flash, the time a search takes by the chip's clock, and the stack a
//! search uses.
//!
//! defmt frames go to the host's stderr (semihosting); `defmt-print -e
//! ELF` shows them. A failure panics, which ends the run with a failing
//! exit status; all passed ends it with success.
#![no_std]
#![no_main]

use kosumi_firmware as _;

/// A serial port that reads a script and keeps what is written, so a GTP
/// session runs through the firmware's own line reader and writer.
pub struct Script {
    input: &'static [u8],
    at: usize,
    output: [u8; 1024],
    len: usize,
}

impl Script {
    pub fn new(input: &'static [u8]) -> Script {
        Script {
            input,
            at: 0,
            output: [0; 1024],
            len: 0,
        }
    }

    /// The `n`th answer written (from 0), without its `= ` and the blank
    /// line after it.
    pub fn answer(&self, n: usize) -> &str {
        let text = core::str::from_utf8(&self.output[..self.len]).expect("answers are text");
        let answer = text.split("\n\n").nth(n).expect("that many answers");
        answer.strip_prefix("= ").unwrap_or_else(|| {
            defmt::panic!("refused: {=str}", answer);
        })
    }
}

impl kosumi_firmware::uart::Serial for Script {
    fn read(&mut self) -> u8 {
        let byte = *self
            .input
            .get(self.at)
            .expect("the script ends with `quit`");
        self.at += 1;
        byte
    }

    fn write(&mut self, byte: u8) {
        let slot = self.output.get_mut(self.len).expect("answers fit");
        *slot = byte;
        self.len += 1;
    }

    fn idle_polls(&self) -> u32 {
        0
    }
}

#[defmt_test::tests]
mod tests {
    use kosumi_core::geometry::Color;
    use kosumi_core::gtp::Engine as _;
    use kosumi_firmware::{clock, gtp, power_on, stack, Powered};

    use super::Script;

    #[init]
    fn init() -> Powered {
        let powered = power_on();
        powered.session.player.new_game();
        powered
    }

    /// The clock never runs backwards, across several SysTick periods
    /// (each 2^24 core cycles: a third of a second at 50 MHz), where a
    /// read between the counter's wrap and the interrupt that counts it
    /// would jump back a whole period.
    #[test]
    fn the_clock_never_runs_backwards_across_systick_periods() {
        let first = clock::wraps();
        let mut last = clock::ticks();
        let mut reads = 0u32;
        while clock::wraps() < first + 3 {
            let now = clock::ticks();
            assert!(now >= last, "ticks ran back from {} to {}", last, now);
            last = now;
            reads += 1;
        }
        defmt::info!("{=u32} reads over 3 SysTick periods", reads);
        assert!(reads > 1000);
    }

    /// The opening book in flash answers the empty board at once, read
    /// in place: no search (a million playouts would take minutes).
    #[test]
    fn the_book_in_flash_answers_the_first_move(p: &mut Powered) {
        let mut port = Script::new(b"clear_board\nkosumi-playouts 1000000\ngenmove b\nquit\n");
        p.session.quit = false;
        let start = clock::now_ms();
        gtp::serve(&mut port, p.session);
        let took = clock::now_ms() - start;
        defmt::info!("book move {=str} in {=u64} ms", port.answer(2), took);
        assert!(took < 100, "took {} ms", took);
        assert_eq!(p.session.game.moves().len(), 1);
    }

    /// A game through the firmware's GTP layer: moves the opening book
    /// does not hold, then a searched `genmove` that the session plays.
    #[test]
    fn gtp_plays_a_searched_move_on_the_chip(p: &mut Powered) {
        let mut port = Script::new(
            b"boardsize 9\nclear_board\nkomi 7\nplay b e5\nplay w c3\nplay b g7\n\
              kosumi-playouts 200\ngenmove w\nquit\n",
        );
        p.session.quit = false;
        gtp::serve(&mut port, p.session);
        let answer = port.answer(7);
        let last = *p.session.game.moves().last().expect("a move");
        assert!(last.color == Color::White && !last.point.is_pass());
        let geo = p.session.game.board().geometry();
        let mut buf = [0; 4];
        assert_eq!(answer, geo.vertex_str(last.point, &mut buf));
        defmt::info!("genmove w: {=str}", answer);
    }

    /// Under `time_settings` the search stops by the chip's own clock:
    /// a 1 s byo-yomi move, with a playout cap far beyond it, takes at
    /// most the second.
    #[test]
    fn a_move_under_a_clock_keeps_to_its_time(p: &mut Powered) {
        let mut port = Script::new(
            b"clear_board\ntime_settings 0 1 1\nplay b e5\nplay w c3\nplay b g7\n\
              kosumi-playouts 1000000\ngenmove w\nquit\n",
        );
        p.session.quit = false;
        let start = clock::now_ms();
        gtp::serve(&mut port, p.session);
        let took = clock::now_ms() - start;
        defmt::info!("genmove under a 1 s byo-yomi: {=u64} ms", took);
        assert!(port.answer(6).len() >= 2);
        assert!(took <= 1000, "took {} ms", took);
        assert!(took >= 300, "took {} ms: no search", took);
    }

    /// After the searches above the stack's deepest use leaves the RAM
    /// budget's 8 KiB spare: statics and stack within the board's RAM.
    #[test]
    fn the_stack_stays_in_its_budget_after_the_searches() {
        let used = stack::high_water();
        let statics = stack::static_ram();
        defmt::info!(
            "stack {=usize} of {=usize}, statics {=usize}",
            used,
            stack::region(),
            statics
        );
        assert!(used + 8 * 1024 <= stack::region());
    }
}
