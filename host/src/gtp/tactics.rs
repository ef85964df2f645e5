//! `attack V` and `defend V`: the core's tactical reader behind GNU Go's
//! commands and answer format (`0`, `1 MOVE`, `2 MOVE`, `3 MOVE`);
//! `connect A B` and `disconnect A B`: its connection reading, same format
//! (`1 PASS`: already one chain); `owl_attack V`, `owl_defend V` and
//! `dragon_status V` (`alive`, `dead`, `critical ATTACK DEFENCE`): the
//! owl's life and death reading, GNU Go's format too; `kosumi-owl_view V`:
//! the owl's static view of a dragon, a debugging aid.
//!
//! The reader's cache is one table allocated here once, at start-up
//! (`--tactics-mb`, default 16 MiB), and never flushed: results are keyed
//! by the region the reading depended on, so they stay valid across moves,
//! undo and `loadsgf`. The search's priors read through the same table.

use kosumi_core::board::Board;
use kosumi_core::geometry::Point;
use kosumi_core::table::{clusters_in, Cluster, Table, TacticCluster};
use kosumi_core::tactics::{
    Answer, Budget, Connector, Goal, LinkGoal, LinkProblem, Owl, OwlGoal, OwlProblem, Problem,
    Reader, Verdict, LINK_BUDGET, OWL_BUDGET,
};

use super::reply::{Failure, Refusal, Reply};
use super::Engine;

/// MiB of the tactical cache unless `--tactics-mb` says otherwise.
pub const DEFAULT_MB: usize = 16;

/// The tactical cache: one table of clusters the host allocates.
pub type TacticTable = Table<TacticCluster, Box<[TacticCluster]>>;

/// The tactical reader's cache, owned by the engine.
pub struct Tactics {
    /// The one global table (`attack`, `defend` and the search's priors).
    pub cache: TacticTable,
}

impl Tactics {
    /// Return an empty cache of `mb` MiB (a power of two of clusters, at
    /// least one).
    ///
    /// # Errors
    /// A message when the memory cannot be had.
    pub fn new(mb: usize) -> Result<Self, String> {
        let clusters = clusters_in::<TacticCluster>(mb.saturating_mul(1 << 20)).max(1);
        let storage = crate::memory::filled(
            clusters,
            <TacticCluster as Cluster>::EMPTY,
            "tactical cache",
        )?;
        let cache =
            Table::new(storage.into_boxed_slice()).map_err(|e| format!("tactical cache: {e:?}"))?;
        Ok(Tactics { cache })
    }
}

/// `attack V`: can the chain at V be captured, its opponent moving first?
pub fn attack(engine: &mut Engine, args: &[String]) -> Reply {
    read(engine, args, Goal::Capture)
}

/// `defend V`: can the chain at V be saved, its owner moving first?
pub fn defend(engine: &mut Engine, args: &[String]) -> Reply {
    read(engine, args, Goal::Save)
}

/// Return a copy of the board and the stone named by the one argument.
fn target(engine: &Engine, args: &[String]) -> Result<(Board, Point), Refusal> {
    let [v] = args else {
        return Err(Failure::Syntax.into());
    };
    let target = super::reply::parse_vertex(engine, v)?;
    let board = engine.game.board().clone();
    if target.is_pass() || board.at(target).color().is_none() {
        return Err(Failure::EmptyVertex.into());
    }
    Ok((board, target))
}

fn read(engine: &mut Engine, args: &[String], goal: Goal) -> Reply {
    let (mut board, target) = target(engine, args)?;
    let mut reader = Reader::new(&mut engine.player.tactics.cache);
    let answer = reader.solve(&mut board, Problem { goal, target }, Budget::default());
    Ok(reply(&board, answer))
}

/// `connect A B`: can the chains at A and B be joined, their owner moving
/// first?
pub fn connect(engine: &mut Engine, args: &[String]) -> Reply {
    read_link(engine, args, LinkGoal::Connect)
}

/// `disconnect A B`: can the chains at A and B be cut apart, their
/// opponent moving first?
pub fn disconnect(engine: &mut Engine, args: &[String]) -> Reply {
    read_link(engine, args, LinkGoal::Disconnect)
}

fn read_link(engine: &mut Engine, args: &[String], goal: LinkGoal) -> Reply {
    let [a, b] = args else {
        return Err(Failure::Syntax.into());
    };
    let a = super::reply::parse_vertex(engine, a)?;
    let b = super::reply::parse_vertex(engine, b)?;
    let mut board = engine.game.board().clone();
    let (Some(ca), Some(cb)) = (board.at(a).color(), board.at(b).color()) else {
        return Err(Failure::EmptyVertex.into());
    };
    if ca != cb {
        return Err(Failure::DifferentColors.into());
    }
    let mut reader = Reader::new(&mut engine.player.tactics.cache);
    let mut connector: Connector = Connector::new();
    let problem = LinkProblem { goal, a, b };
    let answer = connector.solve(&mut reader, &mut board, problem, LINK_BUDGET);
    Ok(reply(&board, answer))
}

/// `owl_attack V`: can the dragon at V be killed, its opponent moving
/// first?
pub fn owl_attack(engine: &mut Engine, args: &[String]) -> Reply {
    let (board, answer) = read_owl(engine, args, OwlGoal::Kill)?;
    Ok(reply(&board, answer))
}

/// `owl_defend V`: can the dragon at V live, its owner moving first?
pub fn owl_defend(engine: &mut Engine, args: &[String]) -> Reply {
    let (board, answer) = read_owl(engine, args, OwlGoal::Live)?;
    Ok(reply(&board, answer))
}

/// `dragon_status V`: `alive` (it cannot be killed), `dead` (it cannot
/// live), or `critical ATTACK DEFENCE` (whoever moves first).
pub fn dragon_status(engine: &mut Engine, args: &[String]) -> Reply {
    let (board, kill) = read_owl(engine, args, OwlGoal::Kill)?;
    if kill.verdict == Verdict::Fails {
        return Ok("alive".into());
    }
    let (_, live) = read_owl(engine, args, OwlGoal::Live)?;
    if live.verdict == Verdict::Fails || kill.key_move.is_pass() {
        return Ok("dead".into());
    }
    let name = |p: Point| {
        let mut buf = [0u8; 4];
        board.geometry().vertex_str(p, &mut buf).to_uppercase()
    };
    Ok(format!(
        "critical {} {}",
        name(kill.key_move),
        name(live.key_move)
    ))
}

fn read_owl(
    engine: &mut Engine,
    args: &[String],
    goal: OwlGoal,
) -> Result<(Board, Answer), Refusal> {
    let (mut board, target) = target(engine, args)?;
    let mut reader = Reader::new(&mut engine.player.tactics.cache);
    let mut owl: Box<Owl> = Box::default();
    let answer = owl.solve(
        &mut reader,
        &mut board,
        OwlProblem { goal, target },
        OWL_BUDGET,
    );
    Ok((board, answer))
}

/// Write an answer in GNU Go's format: `0`, or the code and the move.
fn reply(board: &Board, answer: Answer) -> String {
    if answer.verdict == Verdict::Fails {
        return "0".into();
    }
    let mut buf = [0u8; 4];
    let mv: Point = answer.key_move;
    let vertex = board.geometry().vertex_str(mv, &mut buf).to_uppercase();
    format!("{} {vertex}", answer.verdict.code())
}

/// `kosumi-owl_view V`: the owl's static view of the dragon at V (a
/// debugging aid): a diagram (`@` its stones, `x` the attacker's, `o`
/// the defender's others, `e` eye space, `m` margin, `.` the area, ` `
/// outside), then its eye spaces and the candidates of both sides.
pub fn owl_view(engine: &mut Engine, args: &[String]) -> Reply {
    use kosumi_core::geometry::Cell;
    let (board, target) = target(engine, args)?;
    let Some((v, area, att, def)) = kosumi_core::tactics::owl::root_view(&board, target) else {
        return Err(Failure::EmptyVertex.into());
    };
    let geo = board.geometry();
    let defender = board.at(target).color();
    let name = |p: Point| {
        let mut buf = [0u8; 4];
        geo.vertex_str(p, &mut buf).to_uppercase()
    };
    let mut out = String::from("\n");
    let n = board.size();
    for y in (0..n).rev() {
        out.push_str(&format!("{:2} ", y + 1));
        for x in 0..n {
            let p = geo.point(x, y);
            let c = match board.at(p) {
                _ if v.dragon.contains(p) => '@',
                Cell::Empty if v.inside.as_slice().contains(&p) => 'e',
                Cell::Empty if v.margin.as_slice().contains(&p) => 'm',
                Cell::Empty if area.contains(p) => '.',
                Cell::Empty => ' ',
                c if c.color() == defender => 'o',
                _ => 'x',
            };
            out.push(c);
            out.push(' ');
        }
        out.push('\n');
    }
    for s in &v.spaces[..v.count] {
        out.push_str(&format!(
            "space size {} min {} max {} vital {}\n",
            s.size,
            s.min,
            s.max,
            name(s.vital)
        ));
    }
    let list = |l: &[Point]| l.iter().map(|&p| name(p)).collect::<Vec<_>>().join(" ");
    out.push_str(&format!("status {:?}\n", v.status()));
    out.push_str(&format!("attacker: {}\n", list(att.as_slice())));
    out.push_str(&format!("defender: {}", list(def.as_slice())));
    Ok(out)
}
