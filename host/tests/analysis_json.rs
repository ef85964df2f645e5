//! `kosumi analysis` end to end: KataGo's JSON analysis protocol as its
//! clients (KaTrain, scripts) speak it: one query per line in, one JSON
//! response per line out.

mod common;

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use common::Gtp;
use serde_json::{json, Value};

/// Start the analysis engine with 300 playouts per turn.
fn start() -> Gtp {
    Gtp::start(&["analysis", "--playouts", "300", "--tree-mb", "16"])
}

/// Send one line.
fn send(g: &mut Gtp, query: &Value) {
    g.write(&format!("{query}\n"));
}

/// Read one response line as JSON.
fn read(g: &mut Gtp) -> Value {
    let mut line = String::new();
    let n = g.stdout.read_line(&mut line).unwrap();
    assert!(n > 0, "the engine closed its output");
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// Read responses until the final result of turn `turn` of query `id`;
/// return every response read, that one last.
fn until_final(g: &mut Gtp, id: &str, turn: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let v = read(g);
        let done = v["id"] == json!(id)
            && v["turnNumber"] == json!(turn)
            && v["isDuringSearch"] == json!(false);
        seen.push(v);
        if done {
            return seen;
        }
    }
}

/// A 9x9 query with `moves`, and the fields of `extra`.
fn query(id: &str, moves: &[(&str, &str)], extra: Value) -> Value {
    let moves: Vec<Value> = moves.iter().map(|(c, v)| json!([c, v])).collect();
    let mut q = json!({
        "id": id,
        "moves": moves,
        "rules": "chinese",
        "komi": 7,
        "boardXSize": 9,
        "boardYSize": 9,
    });
    for (k, v) in extra.as_object().unwrap() {
        q[k] = v.clone();
    }
    q
}

/// Black's wall on columns C and D, white's on G and H: black owns A to D
/// (36 points), white G to J (27), E and F are dame.
fn walls() -> Vec<Value> {
    let stone = |c: &str, col: char, y: u32| json!([c, format!("{col}{y}")]);
    (1..=9)
        .flat_map(|y| {
            [
                stone("B", 'C', y),
                stone("B", 'D', y),
                stone("W", 'G', y),
                stone("W", 'H', y),
            ]
        })
        .collect()
}

/// Return the moves' names of a result.
fn moves_of(v: &Value) -> Vec<String> {
    v["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn moves_are_legal_sorted_and_within_the_budget() {
    let mut g = start();
    let played = [("B", "E5"), ("W", "C3"), ("B", "G7")];
    send(&mut g, &query("a", &played, json!({"analysisPVLen": 4})));
    let v = read(&mut g);
    assert_eq!(v["id"], "a");
    assert_eq!(v["turnNumber"], 3);
    assert_eq!(v["isDuringSearch"], false);
    let root = &v["rootInfo"];
    assert_eq!(root["currentPlayer"], "W");
    assert_eq!(root["visits"], 300, "--playouts is the default budget");
    let infos = v["moveInfos"].as_array().unwrap();
    assert!(infos.len() > 3, "{infos:?}");
    let mut last = u64::MAX;
    let mut sum = 0;
    for (i, m) in infos.iter().enumerate() {
        let mv = m["move"].as_str().unwrap();
        assert!(!played.iter().any(|&(_, p)| p == mv), "{mv} is occupied");
        let visits = m["visits"].as_u64().unwrap();
        assert!(visits <= last, "not sorted by visits: {infos:?}");
        last = visits;
        sum += visits;
        assert_eq!(m["order"], i);
        for key in ["winrate", "prior", "lcb"] {
            let x = m[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{key} {x}");
        }
        for key in [
            "scoreLead",
            "scoreMean",
            "scoreStdev",
            "utility",
            "utilityLcb",
        ] {
            assert!(m[key].is_number(), "{key} missing in {m}");
        }
        let pv = m["pv"].as_array().unwrap();
        assert_eq!(pv[0], mv);
        assert!(pv.len() <= 5, "analysisPVLen 4: {pv:?}");
    }
    assert!(sum <= 300, "{sum} visits");
    for key in ["winrate", "scoreLead", "scoreStdev", "utility"] {
        assert!(root[key].is_number(), "rootInfo has no {key}");
    }
    assert!(v.get("ownership").is_none());
    assert!(v.get("policy").is_none());
    // The query's maxVisits overrides --playouts.
    send(&mut g, &query("b", &played, json!({"maxVisits": 50})));
    assert_eq!(read(&mut g)["rootInfo"]["visits"], 50);
}

#[test]
fn avoided_moves_never_appear_and_allowed_ones_alone_do() {
    let mut g = start();
    let played = [("B", "E5"), ("W", "C3")];
    let avoided: Vec<String> =
        "C5 C6 C7 D4 D5 D6 D7 E3 E4 E6 E7 F3 F4 F5 F6 F7 G3 G4 G5 G6 G7 pass"
            .split(' ')
            .map(str::to_string)
            .collect();
    let avoid = json!({"avoidMoves": [
        {"player": "B", "moves": avoided, "untilDepth": 1},
        {"player": "W", "moves": ["A1"], "untilDepth": 1},
    ]});
    send(&mut g, &query("avoid", &played, avoid));
    let v = read(&mut g);
    let moves = moves_of(&v);
    assert!(!moves.is_empty());
    for m in &moves {
        assert!(!avoided.contains(m), "{m} was avoided: {moves:?}");
    }
    let allow =
        json!({"allowMoves": [{"player": "B", "moves": ["A1", "J9", "pass"], "untilDepth": 1}]});
    send(&mut g, &query("allow", &played, allow));
    let v = read(&mut g);
    let moves = moves_of(&v);
    assert!(!moves.is_empty());
    for m in &moves {
        assert!(["A1", "J9", "pass"].contains(&m.as_str()), "{moves:?}");
    }
}

#[test]
fn ownership_and_results_follow_the_perspective() {
    let mut g = start();
    let q = |id: &str, extra: Value| {
        let mut q = query(id, &[], extra);
        q["initialStones"] = Value::Array(walls());
        q["initialPlayer"] = json!("W");
        q["komi"] = json!(0.5);
        q["includeOwnership"] = json!(true);
        q
    };
    send(
        &mut g,
        &q(
            "black",
            json!({"maxVisits": 600, "includeMovesOwnership": true}),
        ),
    );
    let v = read(&mut g);
    let infos = v["moveInfos"].as_array().unwrap();
    let with_map = infos
        .iter()
        .filter(|m| m.get("ownership").is_some())
        .count();
    assert_eq!(with_map, infos.len().min(10), "the 10 most visited moves");
    assert_eq!(infos[0]["ownership"].as_array().unwrap().len(), 81);
    let own: Vec<f64> = v["ownership"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(own.len(), 81);
    assert!(own.iter().all(|x| (-1.0..=1.0).contains(x)));
    // Row 5 from the top (the board's row 5): A5 black's, J5 white's.
    let (a5, j5) = (own[4 * 9], own[4 * 9 + 8]);
    assert!(a5 > 0.5 && j5 < -0.5, "A5 {a5}, J5 {j5}");
    let root = &v["rootInfo"];
    assert_eq!(root["currentPlayer"], "W");
    let black_wr = root["winrate"].as_f64().unwrap();
    let black_lead = root["scoreLead"].as_f64().unwrap();
    assert!(black_wr > 0.7, "black wins: {root}");
    assert!(black_lead > 3.0, "black leads by 8.5: {root}");
    let settings =
        json!({"maxVisits": 600, "overrideSettings": {"reportAnalysisWinratesAs": "SIDETOMOVE"}});
    send(&mut g, &q("white", settings));
    let v = read(&mut g);
    let root = &v["rootInfo"];
    assert!(
        root["winrate"].as_f64().unwrap() < 0.3,
        "white to move loses: {root}"
    );
    assert!(root["scoreLead"].as_f64().unwrap() < -3.0, "{root}");
    let a5 = v["ownership"][4 * 9].as_f64().unwrap();
    assert!(a5 < -0.5, "A5 is the opponent's for white: {a5}");
}

#[test]
fn policy_covers_the_board_and_pass() {
    let mut g = start();
    let played = [("B", "E5"), ("W", "C3")];
    send(&mut g, &query("p", &played, json!({"includePolicy": true})));
    let v = read(&mut g);
    let policy: Vec<f64> = v["policy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(policy.len(), 82);
    // E5 is row 5 (index 4 from the top), column E (4); C3 row 3, column C.
    assert_eq!(policy[4 * 9 + 4], -1.0);
    assert_eq!(policy[6 * 9 + 2], -1.0);
    let legal: f64 = policy.iter().filter(|&&p| p >= 0.0).sum();
    assert!((legal - 1.0).abs() < 1e-3, "shares sum to {legal}");
    assert_eq!(policy.iter().filter(|&&p| p < 0.0).count(), 2);
}

#[test]
fn partial_reports_come_before_the_final_one() {
    let mut g = start();
    let extra = json!({"maxVisits": 20000, "reportDuringSearchEvery": 0.05});
    send(&mut g, &query("r", &[("B", "E5")], extra));
    let seen = until_final(&mut g, "r", 1);
    let (last, partial) = seen.split_last().unwrap();
    assert!(
        !partial.is_empty(),
        "no partial report before the final one"
    );
    let mut visits = 0;
    for v in partial {
        assert_eq!(v["isDuringSearch"], true, "{v}");
        let n = v["rootInfo"]["visits"].as_u64().unwrap();
        assert!(n >= visits && n < 20000, "{n} after {visits}");
        visits = n;
    }
    assert_eq!(last["rootInfo"]["visits"], 20000);
}

#[test]
fn several_turns_answer_one_result_each() {
    let mut g = start();
    let played = [("B", "E5"), ("W", "C3")];
    send(
        &mut g,
        &query(
            "t",
            &played,
            json!({"analyzeTurns": [2, 0, 1], "maxVisits": 30}),
        ),
    );
    let mut turns = Vec::new();
    for _ in 0..3 {
        let v = read(&mut g);
        assert_eq!(v["isDuringSearch"], false);
        let player = if v["turnNumber"] == 1 { "W" } else { "B" };
        assert_eq!(v["rootInfo"]["currentPlayer"], player, "{v}");
        turns.push(v["turnNumber"].as_u64().unwrap());
    }
    turns.sort_unstable();
    assert_eq!(turns, [0, 1, 2]);
}

#[test]
fn bad_input_gets_error_lines_and_the_loop_goes_on() {
    let mut g = start();
    g.write("this is not json\n");
    let v = read(&mut g);
    assert!(
        v["error"].as_str().unwrap().contains("could not parse"),
        "{v}"
    );
    assert!(v.get("id").is_none());
    g.write("{\"moves\":[]}\n");
    assert!(read(&mut g)["error"].as_str().unwrap().contains("id"));
    g.write("\n");
    send(
        &mut g,
        &query("illegal", &[("B", "E5"), ("W", "E5")], json!({})),
    );
    let v = read(&mut g);
    assert_eq!(v["id"], "illegal");
    assert_eq!(v["field"], "moves");
    assert!(
        v["error"].as_str().unwrap().contains("Illegal move 1"),
        "{v}"
    );
    send(
        &mut g,
        &query("big", &[], json!({"boardXSize": 30, "boardYSize": 30})),
    );
    let v = read(&mut g);
    assert_eq!(
        (&v["id"], &v["field"]),
        (&json!("big"), &json!("boardXSize"))
    );
    assert!(v["error"].is_string());
    send(&mut g, &query("norules", &[], json!({"rules": 3})));
    assert_eq!(read(&mut g)["field"], "rules");
    g.stdin
        .write_all(b"{\"id\":\"bytes\",\"moves\":\xff}\n")
        .unwrap();
    g.stdin.flush().unwrap();
    assert!(read(&mut g)["error"].is_string());
    // A query with warnings still runs.
    send(
        &mut g,
        &query(
            "jp",
            &[],
            json!({"rules": "japanese", "maxVisits": 20, "typo": 1}),
        ),
    );
    let warnings = [read(&mut g), read(&mut g)];
    for w in &warnings {
        assert_eq!(w["id"], "jp");
        assert!(w["warning"].is_string(), "{w}");
    }
    assert_eq!(warnings[0]["field"], "rules");
    assert_eq!(warnings[1]["field"], "typo");
    assert_eq!(read(&mut g)["rootInfo"]["visits"], 20);
    send(&mut g, &json!({"id": "v", "action": "query_version"}));
    let v = read(&mut g);
    assert_eq!(v["id"], "v");
    assert_eq!(v["action"], "query_version");
    assert!(v["version"].is_string() && v["git_hash"].is_string(), "{v}");
    drop(g.stdin);
    let status = g.child.wait().unwrap();
    assert!(status.success(), "exit status {status}");
}

#[test]
fn terminate_stops_the_running_turn_and_the_queued_ones() {
    let mut g = start();
    // About two minutes of playouts: a terminate that does not stop the
    // search fails the test below instead of hanging it.
    let long = json!({"maxVisits": 2_000_000, "reportDuringSearchEvery": 0.1});
    send(&mut g, &query("long", &[("B", "E5")], long));
    send(&mut g, &query("queued", &[], json!({"priority": -1})));
    let first = read(&mut g);
    assert_eq!(
        (&first["id"], &first["isDuringSearch"]),
        (&json!("long"), &json!(true))
    );
    let asked = Instant::now();
    send(
        &mut g,
        &json!({"id": "t1", "action": "terminate", "terminateId": "queued"}),
    );
    send(
        &mut g,
        &json!({"id": "t2", "action": "terminate", "terminateId": "long"}),
    );
    let seen = until_final(&mut g, "long", 1);
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "took {:?}",
        asked.elapsed()
    );
    let last = seen.last().unwrap();
    let visits = last["rootInfo"]["visits"].as_u64().unwrap();
    assert!(visits > 0 && visits < 2_000_000, "{visits}");
    let others: Vec<&Value> = seen.iter().filter(|v| v["id"] != "long").collect();
    assert!(
        others.contains(
            &&json!({"id": "queued", "turnNumber": 0, "isDuringSearch": false, "noResults": true})
        ),
        "{others:?}"
    );
    assert!(
        others
            .iter()
            .any(|v| v["id"] == "t1" && v["terminateId"] == "queued"),
        "{others:?}"
    );
    // The second acknowledgement arrives by the time the next answer does.
    send(&mut g, &json!({"id": "v", "action": "query_version"}));
    let mut rest = vec![read(&mut g)];
    if rest[0]["id"] != "v" {
        rest.push(read(&mut g));
    }
    assert!(
        seen.iter().chain(&rest).any(|v| v["id"] == "t2"),
        "{seen:?} {rest:?}"
    );
    assert_eq!(rest.last().unwrap()["id"], "v");
}

#[test]
fn clear_cache_is_acknowledged() {
    let mut g = start();
    send(&mut g, &json!({"id": "c", "action": "clear_cache"}));
    assert_eq!(read(&mut g), json!({"id": "c", "action": "clear_cache"}));
    send(&mut g, &json!({"id": "m", "action": "query_models"}));
    assert_eq!(read(&mut g)["models"][0]["name"], "kosumi");
}
