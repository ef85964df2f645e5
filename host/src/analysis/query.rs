//! One input line of KataGo's analysis protocol, checked into a typed
//! request: an analysis query ([`Query`]) or an action, with the warnings
//! to send before it runs; or the refusal to send instead.
//!
//! Fields are checked in KataGo's order with KataGo's messages; the first
//! bad one refuses the line. Fields KataGo knows and kosumi does not use
//! are accepted with a warning (when they would change something), fields
//! nobody knows with KataGo's "unexpected field" warning.

use serde_json::{Map, Value};

use kosumi_core::geometry::{Color, Geometry, Point, MAX_SIZE, MIN_SIZE};

use super::position::{handicap_stones, Position, Refused};
use super::rules::{self, Bonus, Rules};

/// A parsed line: its id, what it asks, and warnings about it.
#[derive(Debug)]
pub struct Line {
    /// The query's `id`.
    pub id: String,
    /// What it asks.
    pub request: Request,
    /// Warnings to send before the answer.
    pub warnings: Vec<Warning>,
}

/// What a line asks.
#[derive(Debug)]
pub enum Request {
    /// Analyse turns of a game.
    Analyse(Box<Query>),
    /// `query_version`: the line echoed with the version.
    Version(Map<String, Value>),
    /// `clear_cache`: the line echoed once the caches are empty.
    ClearCache(Map<String, Value>),
    /// `query_models`: the line echoed with the models.
    Models(Map<String, Value>),
    /// `terminate` (a target id) or `terminate_all` (none), for some turns
    /// or all; the line is echoed.
    Terminate {
        /// The line, to echo.
        echo: Map<String, Value>,
        /// The id of the queries to end (`None`: all).
        target: Option<String>,
        /// Their turns (`None`: all).
        turns: Option<Vec<usize>>,
    },
}

/// A line refused: KataGo's error response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The query's id, when it has one.
    pub id: Option<String>,
    /// The field at fault, when there is one.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// A remark about a query that still runs: KataGo's warning response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The field it is about.
    pub field: String,
    /// The remark.
    pub message: String,
}

/// Whose view the win rates, scores and ownership are reported from
/// (KataGo's `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Black's (KataGo's example analysis config, and what KaTrain asks for).
    Black,
    /// White's.
    White,
    /// The side to move's.
    SideToMove,
}

impl Perspective {
    /// Query whether values of `c`, to move, are turned to the other side.
    pub fn flips(self, c: Color) -> bool {
        match self {
            Perspective::Black => c == Color::White,
            Perspective::White => c == Color::Black,
            Perspective::SideToMove => false,
        }
    }
}

/// The root moves one colour may not search (`avoidMoves`) or may only
/// search (`allowMoves`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Moves not searched.
    pub avoid: Vec<Point>,
    /// The only moves searched (`None`: all).
    pub allow: Option<Vec<Point>>,
}

/// An analysis query.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// Its id.
    pub id: String,
    /// The game.
    pub position: Position,
    /// The turns to analyse, ascending.
    pub turns: Vec<usize>,
    /// The priority of each turn of `turns`.
    pub priorities: Vec<i64>,
    /// Most playouts per turn (`None`: the engine's default).
    pub max_visits: Option<u64>,
    /// Most seconds per turn (`None`: the engine's default).
    pub max_time: Option<f64>,
    /// Most moves of a principal variation after its first.
    pub pv_len: usize,
    /// Add the ownership map.
    pub ownership: bool,
    /// Add the ownership map after each of the most visited moves.
    pub moves_ownership: bool,
    /// Add the prior of every point.
    pub policy: bool,
    /// Seconds between partial reports (`None`: none).
    pub report_every: Option<f64>,
    /// Seconds before the first partial report.
    pub first_report: Option<f64>,
    /// Whose view the values take.
    pub perspective: Perspective,
    /// Root move filters, by colour ([`Color::idx`]).
    pub filters: [Filter; 2],
}

impl Query {
    /// Return the moves of `c` the query keeps out of the root, among the
    /// empty points of `board` and pass.
    pub fn excluded(&self, c: Color, board: &kosumi_core::board::Board) -> Vec<Point> {
        let filter = &self.filters[c.idx()];
        let mut out = filter.avoid.clone();
        if let Some(allow) = &filter.allow {
            out.extend(
                board
                    .empty_points()
                    .chain(std::iter::once(Point::PASS))
                    .filter(|p| !allow.contains(p)),
            );
        }
        out
    }
}

/// PV moves after the first, unless the query says otherwise (KataGo's).
pub const DEFAULT_PV_LEN: usize = 15;

/// The query fields KataGo knows.
const KNOWN: &[&str] = &[
    "id",
    "action",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "analysisPVLen",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "priorities",
];

/// Flags KataGo knows whose output kosumi does not give.
const UNSUPPORTED_FLAGS: &[&str] = &[
    "includeOwnershipStdev",
    "includeMovesOwnershipStdev",
    "includePVVisits",
    "includeNoResultValue",
];

/// The settings of `overrideSettings` kosumi uses.
const SETTINGS: &[&str] = &[
    "reportAnalysisWinratesAs",
    "maxVisits",
    "maxPlayouts",
    "maxTime",
];

/// Parse one input line (not blank).
///
/// # Errors
/// The refusal to send: bad JSON, no string `id`, or a bad field.
pub fn parse(line: &str) -> Result<Line, Refusal> {
    let general = |message: String| Refusal {
        id: None,
        field: None,
        message,
    };
    let value: Value = serde_json::from_str(line).map_err(|e| {
        general(format!(
            "{e} - could not parse input line as json request: {line}"
        ))
    })?;
    let Value::Object(map) = value else {
        return Err(general(format!(
            "Request line was valid json but was not an object, ignoring: {value}"
        )));
    };
    let Some(Value::String(id)) = map.get("id") else {
        return Err(general("Request must have a string \"id\" field".into()));
    };
    let id = id.clone();
    let f = Fields { map: &map, id: &id };
    if let Some(Value::String(action)) = map.get("action") {
        let request = action_request(&f, action)?;
        return Ok(Line {
            id,
            request,
            warnings: Vec::new(),
        });
    }
    let mut warnings = Vec::new();
    let query = analysis_query(&f, &mut warnings)?;
    Ok(Line {
        id,
        request: Request::Analyse(Box::new(query)),
        warnings,
    })
}

/// Return the request of the action `action`.
fn action_request(f: &Fields<'_>, action: &str) -> Result<Request, Refusal> {
    let echo = f.map.clone();
    let turns = || match f.map.get("turnNumbers") {
        None => Ok(None),
        Some(v) => turn_list(v).map(Some).ok_or_else(|| {
            f.refuse(
                "turnNumbers",
                "If provided, must be an array of integers indicating turns to terminate",
            )
        }),
    };
    match action {
        "query_version" => Ok(Request::Version(echo)),
        "clear_cache" => Ok(Request::ClearCache(echo)),
        "query_models" => Ok(Request::Models(echo)),
        "terminate" => {
            let Some(Value::String(target)) = f.map.get("terminateId") else {
                return Err(f.refuse(
                    "terminateId",
                    "Requests for a terminate action must have a string \"terminateId\" field",
                ));
            };
            Ok(Request::Terminate {
                target: Some(target.clone()),
                turns: turns()?,
                echo,
            })
        }
        "terminate_all" => Ok(Request::Terminate {
            target: None,
            turns: turns()?,
            echo,
        }),
        _ => Err(f.refuse(
            "action",
            "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or 'terminate' or 'terminate_all'",
        )),
    }
}

/// Return the non-negative integers of the array `v`; `None` if it is not one.
fn turn_list(v: &Value) -> Option<Vec<usize>> {
    v.as_array()?
        .iter()
        .map(|t| t.as_u64().map(|t| t as usize))
        .collect()
}

/// Check the fields of an analysis query.
fn analysis_query(f: &Fields<'_>, warnings: &mut Vec<Warning>) -> Result<Query, Refusal> {
    let size_error = format!("Must provide an integer from {MIN_SIZE} to {MAX_SIZE}");
    let mut sizes = [0usize; 2];
    for (slot, field) in sizes.iter_mut().zip(["boardXSize", "boardYSize"]) {
        *slot = f
            .int(field, MIN_SIZE as i64, MAX_SIZE as i64, &size_error)?
            .ok_or_else(|| f.refuse(field, &size_error))? as usize;
    }
    let [size, height] = sizes;
    if size != height {
        return Err(f.refuse(
            "boardYSize",
            "kosumi supports square boards only: boardYSize must equal boardXSize",
        ));
    }
    let geo = Geometry::new(size).map_err(|_| f.refuse("boardXSize", &size_error))?;
    let setup = match f.get("initialStones") {
        None => Vec::new(),
        Some(v) => stones(geo, v, false).map_err(|m| f.refuse("initialStones", m))?,
    };
    let moves = match f.get("moves") {
        None => return Err(f.refuse("moves", "Must specify an array of [player,location] pairs")),
        Some(v) => stones(geo, v, true).map_err(|m| f.refuse("moves", m))?,
    };
    let initial = match f.get("initialPlayer") {
        None => None,
        Some(v) => {
            Some(player(v).ok_or_else(|| f.refuse("initialPlayer", "Must be \"b\" or \"w\""))?)
        }
    };
    let turns = match f.get("analyzeTurns") {
        None => vec![moves.len()],
        Some(v) => {
            let list = v.as_array().and_then(|a| {
                a.iter()
                    .map(|t| t.as_i64().and_then(|t| i32::try_from(t).ok()))
                    .collect::<Option<Vec<i32>>>()
            });
            let list = list.ok_or_else(|| {
                f.refuse(
                    "analyzeTurns",
                    "Must specify an array of integers indicating turns to analyze",
                )
            })?;
            if let Some(bad) = list.iter().find(|&&t| t < 0 || t as usize > moves.len()) {
                return Err(f.refuse("analyzeTurns", format!("Invalid turn number: {bad}")));
            }
            list.into_iter().map(|t| t as usize).collect()
        }
    };
    let priorities = priorities(f, &turns)?;
    let rules = match f.get("rules") {
        None => Err("Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.".to_string()),
        Some(v) => Rules::parse(v),
    }
    .map_err(|m| f.refuse("rules", m))?;
    if rules.territory {
        warnings.push(Warning {
            field: "rules".into(),
            message: "kosumi counts area: territory scoring is approximated by area scoring with the same komi".into(),
        });
    }
    let komi2 = match f.get("komi") {
        None => rules.default_komi2,
        Some(v) => rules::komi2(v).ok_or_else(|| {
            f.refuse(
                "komi",
                "Must be a integer or half-integer from -400.0 to 400.0",
            )
        })?,
    };
    let bonus = match f.get("whiteHandicapBonus") {
        None => rules.bonus,
        Some(Value::String(s)) => Bonus::parse(s).map_err(|m| f.refuse("whiteHandicapBonus", m))?,
        Some(_) => return Err(f.refuse("whiteHandicapBonus", "Must be a string")),
    };
    let (perspective, mut max_visits, max_time) = settings(f, warnings)?;
    if let Some(v) = f.int("maxVisits", 1, 1 << 50, "Must be an integer from 1 to 2^50")? {
        max_visits = Some(v as u64);
    }
    let pv_len = f
        .int(
            "analysisPVLen",
            1,
            1000,
            "Must be an integer from 1 to 1000",
        )?
        .map_or(DEFAULT_PV_LEN, |n| n as usize);
    for (field, min, max, msg) in [
        (
            "rootFpuReductionMax",
            0.0,
            2.0,
            "Must be a number from 0.0 to 2.0",
        ),
        (
            "rootPolicyTemperature",
            0.01,
            100.0,
            "Must be a number from 0.01 to 100.0",
        ),
    ] {
        if f.number(field, min, max, msg)?.is_some() {
            warnings.push(unused(
                field,
                "kosumi's search has no such parameter; ignored",
            ));
        }
    }
    for field in UNSUPPORTED_FLAGS {
        if f.flag(field)? == Some(true) {
            warnings.push(unused(
                field,
                "not supported by kosumi; the field is left out",
            ));
        }
    }
    let ownership = f.flag("includeOwnership")?.unwrap_or(false);
    let moves_ownership = f.flag("includeMovesOwnership")?.unwrap_or(false);
    let policy = f.flag("includePolicy")?.unwrap_or(false);
    let seconds = "Must be number of seconds from 0.001 to 1000000.0";
    let report_every = f.number("reportDuringSearchEvery", 0.001, 1_000_000.0, seconds)?;
    let first_report = f
        .number("firstReportDuringSearchAfter", 0.001, 1_000_000.0, seconds)?
        .or(report_every);
    let filters = filters(f, geo, warnings)?;
    for key in f.map.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
        warnings.push(unused(
            key,
            "Unexpected or unused field, do you have a typo?",
        ));
    }
    let setup: Vec<(Point, Color)> = setup.iter().map(|&(c, p)| (p, c)).collect();
    let first = initial.unwrap_or_else(|| match moves.first() {
        Some(&(c, _)) => c,
        None if handicap_stones(&setup) > 0 => Color::White,
        None => Color::Black,
    });
    let bonus2 = 2 * bonus.points(handicap_stones(&setup)) as i16;
    let position = Position {
        size,
        komi2: komi2 + bonus2,
        setup,
        first,
        moves,
    };
    match position.game(position.moves.len()) {
        Ok(_) => {}
        Err(Refused::Size) => return Err(f.refuse("boardXSize", size_error)),
        Err(Refused::Setup) => {
            return Err(f.refuse(
                "initialStones",
                "Repeated point, or a chain without liberties",
            ))
        }
        Err(Refused::Move { index, .. }) => {
            let mut buf = [0u8; 4];
            let p = position.moves[index].1;
            return Err(f.refuse(
                "moves",
                format!("Illegal move {index}: {}", geo.vertex_str(p, &mut buf)),
            ));
        }
    }
    let mut turns_sorted: Vec<(usize, i64)> = turns.into_iter().zip(priorities).collect();
    turns_sorted.sort_by_key(|&(t, _)| t);
    turns_sorted.dedup_by_key(|&mut (t, _)| t);
    Ok(Query {
        id: f.id.to_string(),
        position,
        turns: turns_sorted.iter().map(|&(t, _)| t).collect(),
        priorities: turns_sorted.iter().map(|&(_, p)| p).collect(),
        max_visits,
        max_time,
        pv_len,
        ownership,
        moves_ownership,
        policy,
        report_every,
        first_report,
        perspective,
        filters,
    })
}

/// Return a warning that `field` is not used.
fn unused(field: &str, message: &str) -> Warning {
    Warning {
        field: field.to_string(),
        message: message.to_string(),
    }
}

/// Return the priority of each of `turns` (`priority`, or `priorities`
/// one by one, or 0).
fn priorities(f: &Fields<'_>, turns: &[usize]) -> Result<Vec<i64>, Refusal> {
    const LIMIT: i64 = 0x3FFF_FFFF_FFFF_FFFF;
    if let Some(v) = f.get("priorities") {
        let list = v
            .as_array()
            .and_then(|a| a.iter().map(Value::as_i64).collect::<Option<Vec<i64>>>())
            .ok_or_else(|| {
                f.refuse(
                    "priorities",
                    "Must specify an array of integers indicating priorities",
                )
            })?;
        if f.get("analyzeTurns").is_none() {
            return Err(f.refuse(
                "priorities",
                "Can only specify when also specifying analyzeTurns",
            ));
        }
        if list.len() != turns.len() {
            return Err(f.refuse("priorities", "Must be of matching length to analyzeTurns"));
        }
        if let Some(bad) = list.iter().find(|p| p.abs() > LIMIT) {
            return Err(f.refuse("priorities", format!("Invalid priority: {bad}")));
        }
        if f.get("priority").is_some() {
            return Err(f.refuse("priority", "Cannot specify both priority and priorities"));
        }
        return Ok(list);
    }
    let p = f
        .int(
            "priority",
            -LIMIT,
            LIMIT,
            "Must be a number between -2^62 and 2^62",
        )?
        .unwrap_or(0);
    Ok(vec![p; turns.len()])
}

/// Read `overrideSettings`: the perspective, playouts and seconds it sets;
/// warn of the settings kosumi does not use.
fn settings(
    f: &Fields<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<(Perspective, Option<u64>, Option<f64>), Refusal> {
    let mut out = (Perspective::Black, None, None);
    let Some(v) = f.get("overrideSettings") else {
        return Ok(out);
    };
    let Value::Object(settings) = v else {
        return Err(f.refuse("overrideSettings", "Must be an object"));
    };
    let refuse = |key: &str| {
        f.refuse(
            "overrideSettings",
            format!("Could not set settings: bad value for {key}"),
        )
    };
    // KataGo reads every setting as text: numbers may come as strings.
    let number = |v: &Value| match v {
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => v.as_f64(),
    };
    for (key, v) in settings {
        match key.as_str() {
            "reportAnalysisWinratesAs" => {
                out.0 = perspective_of(Some(v)).ok_or_else(|| refuse(key))?;
            }
            "maxVisits" | "maxPlayouts" => {
                let n = number(v)
                    .filter(|n| *n >= 1.0 && n.fract() == 0.0)
                    .ok_or_else(|| refuse(key))? as u64;
                out.1 = Some(out.1.map_or(n, |m: u64| m.min(n)));
            }
            "maxTime" => {
                out.2 = Some(number(v).filter(|t| *t > 0.0).ok_or_else(|| refuse(key))?);
            }
            _ => {}
        }
    }
    let ignored: Vec<&str> = settings
        .keys()
        .map(String::as_str)
        .filter(|k| !SETTINGS.contains(k))
        .collect();
    if !ignored.is_empty() {
        warnings.push(unused(
            "overrideSettings",
            &format!(
                "Settings kosumi does not use (ignored): {}",
                ignored.join(",")
            ),
        ));
    }
    Ok(out)
}

/// Parse a `reportAnalysisWinratesAs` value.
fn perspective_of(v: Option<&Value>) -> Option<Perspective> {
    match v?.as_str()?.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Perspective::Black),
        "w" | "white" => Some(Perspective::White),
        "sidetomove" => Some(Perspective::SideToMove),
        _ => None,
    }
}

/// Read `avoidMoves` or `allowMoves` into per-colour filters; warn when
/// an `untilDepth` beyond 1 asks for more than the root.
fn filters(
    f: &Fields<'_>,
    geo: Geometry,
    warnings: &mut Vec<Warning>,
) -> Result<[Filter; 2], Refusal> {
    let mut filters: [Filter; 2] = Default::default();
    let (allow, avoid) = (f.get("allowMoves"), f.get("avoidMoves"));
    let (field, list, allowing) = match (allow, avoid) {
        (Some(_), Some(_)) => {
            return Err(f.refuse(
                "allowMoves",
                "Cannot specify both allowMoves and avoidMoves",
            ))
        }
        (Some(v), None) => ("allowMoves", v, true),
        (None, Some(v)) => ("avoidMoves", v, false),
        (None, None) => return Ok(filters),
    };
    let shape = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
    let entries = list.as_array().ok_or_else(|| f.refuse(field, shape))?;
    if allowing && entries.len() > 2 {
        return Err(f.refuse(
            field,
            "Currently allowMoves only allows at most one entry per player",
        ));
    }
    let mut deeper = false;
    for entry in entries {
        let (Some(pv), Some(mv), Some(dv)) = (
            entry.get("player"),
            entry.get("moves"),
            entry.get("untilDepth"),
        ) else {
            return Err(f.refuse(field, shape));
        };
        let c = player(pv).ok_or_else(|| f.refuse(field, "Must be \"b\" or \"w\""))?;
        let points = vertices(geo, mv).map_err(|m| f.refuse(field, m))?;
        let depth = dv
            .as_i64()
            .filter(|d| (1..=1_000_000_000).contains(d))
            .ok_or_else(|| f.refuse(field, "Must be a positive integer"))?;
        deeper |= depth > 1;
        let filter = &mut filters[c.idx()];
        if allowing {
            if filter.allow.is_some() {
                return Err(f.refuse(
                    field,
                    "Cannot specify allowMoves more than once for the same player",
                ));
            }
            filter.allow = Some(points);
        } else {
            filter.avoid.extend(points);
        }
    }
    if deeper {
        warnings.push(unused(
            field,
            "kosumi applies it at the root only, as untilDepth 1",
        ));
    }
    Ok(filters)
}

/// Parse a player, `"B"` or `"W"` (or `black`, `white`, any case).
fn player(v: &Value) -> Option<Color> {
    kosumi_core::gtp::args::color(v.as_str()?).ok()
}

/// Parse an array of `[player, vertex]` pairs.
fn stones(geo: Geometry, v: &Value, allow_pass: bool) -> Result<Vec<(Color, Point)>, String> {
    let shape = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
    let list = v.as_array().ok_or(shape)?;
    let mut out = Vec::with_capacity(list.len());
    for pair in list {
        let [c, p] = pair.as_array().map(Vec::as_slice).unwrap_or_default() else {
            return Err(shape.to_string());
        };
        let (Some(c), Some(p)) = (c.as_str(), p.as_str()) else {
            return Err(shape.to_string());
        };
        let color =
            kosumi_core::gtp::args::color(c).map_err(|_| format!("Could not parse player: {c}"))?;
        out.push((color, vertex(geo, p, allow_pass)?));
    }
    Ok(out)
}

/// Parse an array of vertices (pass allowed).
fn vertices(geo: Geometry, v: &Value) -> Result<Vec<Point>, String> {
    let shape = "Must be an array of GTP board vertices";
    v.as_array()
        .ok_or(shape)?
        .iter()
        .map(|p| vertex(geo, p.as_str().ok_or(shape)?, true))
        .collect()
}

/// Parse a GTP vertex on the board (or pass, if allowed).
fn vertex(geo: Geometry, text: &str, allow_pass: bool) -> Result<Point, String> {
    match geo.parse_vertex(text) {
        Ok(p) if allow_pass || !p.is_pass() => Ok(p),
        _ => Err(format!("Could not parse board location: {text}")),
    }
}

/// A query's fields, read with KataGo's checks.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    id: &'a str,
}

impl Fields<'_> {
    /// Return the refusal of the query for `field`.
    fn refuse(&self, field: &str, message: impl Into<String>) -> Refusal {
        Refusal {
            id: Some(self.id.to_string()),
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// Return the value of `field`, if present.
    fn get(&self, field: &str) -> Option<&Value> {
        self.map.get(field)
    }

    /// Return the integer `field` from `min` to `max`, if present.
    fn int(&self, field: &str, min: i64, max: i64, msg: &str) -> Result<Option<i64>, Refusal> {
        self.get(field)
            .map(|v| {
                v.as_i64()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| self.refuse(field, msg))
            })
            .transpose()
    }

    /// Return the finite number `field` from `min` to `max`, if present.
    fn number(&self, field: &str, min: f64, max: f64, msg: &str) -> Result<Option<f64>, Refusal> {
        self.get(field)
            .map(|v| {
                v.as_f64()
                    .filter(|x| x.is_finite() && (min..=max).contains(x))
                    .ok_or_else(|| self.refuse(field, msg))
            })
            .transpose()
    }

    /// Return the boolean `field`, if present.
    fn flag(&self, field: &str) -> Result<Option<bool>, Refusal> {
        self.get(field)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| self.refuse(field, "Must be a boolean"))
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#""id":"q","moves":[["B","E5"],["W","C3"]],"rules":"chinese","boardXSize":9,"boardYSize":9"#;

    fn query(extra: &str) -> Result<(Query, Vec<Warning>), Refusal> {
        let line = parse(&format!("{{{BASE}{extra}}}"))?;
        match line.request {
            Request::Analyse(q) => Ok((*q, line.warnings)),
            other => panic!("not a query: {other:?}"),
        }
    }

    fn refused(extra: &str) -> Refusal {
        query(extra).expect_err("should be refused")
    }

    #[test]
    fn defaults_follow_katago() {
        let (q, warnings) = query("").unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(q.turns, [2]);
        assert_eq!(q.priorities, [0]);
        assert_eq!(q.position.komi2, 15);
        assert_eq!(q.position.first, Color::Black);
        assert_eq!(q.perspective, Perspective::Black);
        assert_eq!((q.max_visits, q.pv_len, q.ownership), (None, 15, false));
    }

    #[test]
    fn lines_without_json_object_or_id_are_general_errors() {
        for line in ["{", "[1,2]", r#"{"moves":[]}"#, r#"{"id":3}"#] {
            let r = parse(line).unwrap_err();
            assert_eq!((r.id, r.field), (None, None), "{line}");
        }
    }

    #[test]
    fn bad_fields_are_refused_by_name() {
        let field = |extra: &str| refused(extra).field.unwrap();
        assert_eq!(
            field(r#","boardXSize":30,"boardYSize":30"#).as_str(),
            "boardXSize"
        );
        assert_eq!(field(r#","boardYSize":13"#).as_str(), "boardYSize");
        assert_eq!(field(r#","komi":7.2"#).as_str(), "komi");
        assert_eq!(field(r#","analyzeTurns":[3]"#).as_str(), "analyzeTurns");
        assert_eq!(field(r#","maxVisits":0"#).as_str(), "maxVisits");
        assert_eq!(
            field(r#","includeOwnership":"yes""#).as_str(),
            "includeOwnership"
        );
        assert_eq!(field(r#","rules":"go-moku""#).as_str(), "rules");
        let both = r#","avoidMoves":[],"allowMoves":[]"#;
        assert_eq!(field(both).as_str(), "allowMoves");
        let bad_vertex = r#","avoidMoves":[{"player":"B","moves":["Z9"],"untilDepth":1}]"#;
        assert_eq!(field(bad_vertex).as_str(), "avoidMoves");
        let r = parse(r#"{"id":"x","moves":[["B","E5"],["W","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("moves"));
        assert_eq!(r.message, "Illegal move 1: E5");
        assert_eq!(r.id.as_deref(), Some("x"));
    }

    #[test]
    fn unsupported_fields_warn() {
        let (q, w) = query(r#","rules":"japanese","includePVVisits":true,"colour":1"#).unwrap();
        let fields: Vec<&str> = w.iter().map(|w| w.field.as_str()).collect();
        assert_eq!(fields, ["rules", "includePVVisits", "colour"]);
        assert_eq!(q.position.komi2, 13);
        let (_, w) = query(r#","overrideSettings":{"wideRootNoise":0.04,"maxTime":2}"#).unwrap();
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("wideRootNoise"), "{w:?}");
    }

    #[test]
    fn settings_set_perspective_and_limits() {
        let (q, _) = query(
            r#","overrideSettings":{"reportAnalysisWinratesAs":"SIDETOMOVE","maxTime":"1.5","maxVisits":700},"maxVisits":40"#,
        )
        .unwrap();
        assert_eq!(q.perspective, Perspective::SideToMove);
        assert_eq!((q.max_visits, q.max_time), (Some(40), Some(1.5)));
        let r = refused(r#","overrideSettings":{"reportAnalysisWinratesAs":"GREEN"}"#);
        assert_eq!(r.field.as_deref(), Some("overrideSettings"));
    }

    #[test]
    fn handicap_stones_give_white_the_move_and_chinese_bonus() {
        let (q, _) =
            query(r#","moves":[],"initialStones":[["B","C3"],["B","G7"]],"komi":0.5"#).unwrap();
        assert_eq!(q.position.first, Color::White);
        assert_eq!(q.position.komi2, 1 + 4);
        let (q, _) = query(
            r#","moves":[],"initialStones":[["B","C3"],["B","G7"]],"komi":0.5,"whiteHandicapBonus":"0","initialPlayer":"b""#,
        )
        .unwrap();
        assert_eq!((q.position.first, q.position.komi2), (Color::Black, 1));
    }

    #[test]
    fn filters_apply_to_their_colour() {
        let (q, w) = query(
            r#","avoidMoves":[{"player":"B","moves":["D4","pass"],"untilDepth":3},{"player":"W","moves":["E4"],"untilDepth":1}]"#,
        )
        .unwrap();
        assert_eq!(w.len(), 1, "untilDepth 3 warns: {w:?}");
        let game = q.position.game(2).unwrap();
        let black = q.excluded(Color::Black, game.board());
        assert_eq!(black.len(), 2);
        assert!(black.contains(&Point::PASS));
        assert_eq!(q.excluded(Color::White, game.board()).len(), 1);
        let (q, _) =
            query(r#","allowMoves":[{"player":"B","moves":["D4"],"untilDepth":1}]"#).unwrap();
        let game = q.position.game(2).unwrap();
        let excluded = q.excluded(Color::Black, game.board());
        // Every empty point but D4, and pass.
        assert_eq!(excluded.len(), 79 - 1 + 1);
    }

    #[test]
    fn turns_are_sorted_with_their_priorities() {
        let (q, _) = query(r#","analyzeTurns":[2,0,1],"priorities":[5,6,7]"#).unwrap();
        assert_eq!(q.turns, [0, 1, 2]);
        assert_eq!(q.priorities, [6, 7, 5]);
        assert_eq!(
            refused(r#","priorities":[1]"#).field.as_deref(),
            Some("priorities")
        );
    }

    #[test]
    fn actions_are_recognised() {
        let line = parse(r#"{"id":"t","action":"terminate","terminateId":"q","turnNumbers":[1]}"#)
            .unwrap();
        match line.request {
            Request::Terminate { target, turns, .. } => {
                assert_eq!(target.as_deref(), Some("q"));
                assert_eq!(turns, Some(vec![1]));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse(r#"{"id":"v","action":"query_version"}"#)
                .unwrap()
                .request,
            Request::Version(_)
        ));
        let r = parse(r#"{"id":"t","action":"terminate"}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("terminateId"));
        let r = parse(r#"{"id":"t","action":"dance"}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("action"));
    }
}
