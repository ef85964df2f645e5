//! The response lines of the analysis protocol, as KataGo writes them:
//! errors, warnings, echoed actions, and analysis results (one JSON object
//! per line, numbers rounded to 6 decimals).
//!
//! The values of a result are gathered from the side to move's view
//! ([`MoveReport`], [`RootReport`]) and turned to the query's
//! [`Perspective`] here: win rates become `1 - x`, scores and utilities
//! change sign.

use serde_json::{json, Map, Value};

use kosumi_core::geometry::Color;

use super::query::{Perspective, Refusal, Warning};

/// Return the error line of `refusal`.
pub fn error(refusal: &Refusal) -> String {
    let mut map = Map::new();
    if let Some(id) = &refusal.id {
        map.insert("id".into(), json!(id));
    }
    if let Some(field) = &refusal.field {
        map.insert("field".into(), json!(field));
    }
    map.insert("error".into(), json!(refusal.message));
    Value::Object(map).to_string()
}

/// Return the warning line of `warning` about the query `id`.
pub fn warning(id: &str, warning: &Warning) -> String {
    json!({"id": id, "field": warning.field, "warning": warning.message}).to_string()
}

/// Return the line of a turn that was terminated before any search.
pub fn no_results(id: &str, turn: usize) -> String {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true}).to_string()
}

/// Return the action line `echo` with the fields of `extra` added.
pub fn echo(mut echo: Map<String, Value>, extra: Vec<(&str, Value)>) -> String {
    for (key, value) in extra {
        echo.insert(key.to_string(), value);
    }
    Value::Object(echo).to_string()
}

/// One root move's statistics, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move, a GTP vertex or `pass`.
    pub mv: String,
    /// Playouts through it.
    pub visits: u32,
    /// Its win rate.
    pub winrate: f64,
    /// The mean final margin of its playouts, in points.
    pub score: f64,
    /// Their spread.
    pub score_stdev: f64,
    /// Its prior (the pattern model's share).
    pub prior: f64,
    /// The win rate's lower confidence bound.
    pub lcb: f64,
    /// Its rank, 0 for the best.
    pub order: usize,
    /// The principal variation from it, itself first.
    pub pv: Vec<String>,
    /// Ownership after it, black's view, row by row from the top left.
    pub ownership: Option<Vec<f64>>,
}

/// The root's statistics, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct RootReport {
    /// Playouts from the root.
    pub visits: u32,
    /// The win rate over all of them.
    pub winrate: f64,
    /// Their mean final margin, in points.
    pub score: f64,
    /// Its spread.
    pub score_stdev: f64,
    /// The side to move.
    pub to_play: Color,
}

/// One result of a turn's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<'a> {
    /// The query's id.
    pub id: &'a str,
    /// The turn analysed.
    pub turn: usize,
    /// A partial result (`reportDuringSearchEvery`).
    pub during: bool,
    /// The root moves, most visited first.
    pub moves: &'a [MoveReport],
    /// The root.
    pub root: &'a RootReport,
    /// Ownership from black's view, row by row from the top left.
    pub ownership: Option<&'a [f64]>,
    /// The prior of every point (-1: illegal), row by row from the top
    /// left, then pass.
    pub policy: Option<&'a [f64]>,
    /// Whose view the values take.
    pub perspective: Perspective,
}

/// Return `x` rounded to 6 decimals (0 for a value that is not finite,
/// never -0).
fn num(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6 + 0.0)
    } else {
        json!(0.0)
    }
}

/// Return the result line of `a`.
pub fn analysis(a: &Analysis<'_>) -> String {
    let c = a.root.to_play;
    let flip = a.perspective.flips(c);
    let rate = |x: f64| if flip { 1.0 - x } else { x };
    let sign = if flip { -1.0 } else { 1.0 };
    let own_sign = match a.perspective {
        Perspective::Black => 1.0,
        Perspective::White => -1.0,
        Perspective::SideToMove if c == Color::Black => 1.0,
        Perspective::SideToMove => -1.0,
    };
    let map = |own: &[f64]| Value::Array(own.iter().map(|&o| num(own_sign * o)).collect());
    let moves: Vec<Value> = a
        .moves
        .iter()
        .map(|m| {
            let utility = 2.0 * m.winrate - 1.0;
            let utility_lcb = 2.0 * m.lcb - 1.0;
            let mut info = json!({
                "move": m.mv,
                "visits": m.visits,
                "edgeVisits": m.visits,
                "winrate": num(rate(m.winrate)),
                "scoreMean": num(sign * m.score),
                "scoreLead": num(sign * m.score),
                "scoreSelfplay": num(sign * m.score),
                "scoreStdev": num(m.score_stdev),
                "prior": num(m.prior),
                "lcb": num(rate(m.lcb)),
                "utility": num(sign * utility),
                "utilityLcb": num(sign * utility_lcb),
                "order": m.order,
                "pv": m.pv,
            });
            if let Some(own) = &m.ownership {
                info["ownership"] = map(own);
            }
            info
        })
        .collect();
    let r = a.root;
    let root = json!({
        "visits": r.visits,
        "winrate": num(rate(r.winrate)),
        "scoreLead": num(sign * r.score),
        "scoreMean": num(sign * r.score),
        "scoreSelfplay": num(sign * r.score),
        "scoreStdev": num(r.score_stdev),
        "utility": num(sign * (2.0 * r.winrate - 1.0)),
        "currentPlayer": if c == Color::Black { "B" } else { "W" },
    });
    let mut out = Map::new();
    out.insert("id".into(), json!(a.id));
    out.insert("turnNumber".into(), json!(a.turn));
    out.insert("isDuringSearch".into(), json!(a.during));
    out.insert("moveInfos".into(), Value::Array(moves));
    out.insert("rootInfo".into(), root);
    if let Some(own) = a.ownership {
        out.insert("ownership".into(), map(own));
    }
    if let Some(policy) = a.policy {
        let policy: Vec<Value> = policy.iter().map(|&p| num(p)).collect();
        out.insert("policy".into(), Value::Array(policy));
    }
    Value::Object(out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(to_play: Color) -> RootReport {
        RootReport {
            visits: 10,
            winrate: 0.75,
            score: 3.5,
            score_stdev: 2.0,
            to_play,
        }
    }

    fn parse(line: &str) -> Value {
        serde_json::from_str(line).unwrap()
    }

    fn result(root: &RootReport, perspective: Perspective, ownership: &[f64]) -> Value {
        let moves = [MoveReport {
            mv: "D4".into(),
            visits: 7,
            winrate: 0.8,
            score: 4.0,
            score_stdev: 1.0,
            prior: 0.25,
            lcb: 0.6,
            order: 0,
            pv: vec!["D4".into(), "E5".into()],
            ownership: Some(vec![0.5]),
        }];
        parse(&analysis(&Analysis {
            id: "q",
            turn: 3,
            during: false,
            moves: &moves,
            root,
            ownership: Some(ownership),
            policy: None,
            perspective,
        }))
    }

    #[test]
    fn black_view_turns_whites_values() {
        let v = result(&root(Color::White), Perspective::Black, &[1.0, -0.5]);
        assert_eq!(v["rootInfo"]["winrate"], json!(0.25));
        assert_eq!(v["rootInfo"]["scoreLead"], json!(-3.5));
        assert_eq!(v["rootInfo"]["currentPlayer"], json!("W"));
        let m = &v["moveInfos"][0];
        assert!((m["winrate"].as_f64().unwrap() - 0.2).abs() < 1e-9);
        assert_eq!(m["scoreLead"], json!(-4.0));
        assert!((m["utility"].as_f64().unwrap() + 0.6).abs() < 1e-9);
        assert_eq!(m["pv"], json!(["D4", "E5"]));
        assert_eq!(v["ownership"], json!([1.0, -0.5]));
        assert!(v.get("policy").is_none());
    }

    #[test]
    fn side_to_move_view_keeps_values_and_turns_ownership() {
        let v = result(&root(Color::White), Perspective::SideToMove, &[1.0, -0.5]);
        assert_eq!(v["rootInfo"]["winrate"], json!(0.75));
        assert_eq!(v["moveInfos"][0]["scoreMean"], json!(4.0));
        assert_eq!(v["ownership"], json!([-1.0, 0.5]));
        assert_eq!(v["moveInfos"][0]["ownership"], json!([-0.5]));
        let v = result(&root(Color::Black), Perspective::Black, &[1.0]);
        assert_eq!(v["rootInfo"]["winrate"], json!(0.75));
        assert_eq!(v["turnNumber"], json!(3));
        assert_eq!(v["isDuringSearch"], json!(false));
    }

    #[test]
    fn errors_carry_id_and_field_only_when_known() {
        let general = Refusal {
            id: None,
            field: None,
            message: "bad".into(),
        };
        assert_eq!(parse(&error(&general)), json!({"error": "bad"}));
        let field = Refusal {
            id: Some("a".into()),
            field: Some("komi".into()),
            message: "m".into(),
        };
        assert_eq!(
            parse(&error(&field)),
            json!({"id": "a", "field": "komi", "error": "m"})
        );
    }
}
