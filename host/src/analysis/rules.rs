//! A query's `rules`: KataGo's shorthand names (`kata-set-rules`) or a
//! JSON object of rule options, reduced to what kosumi's search can use.
//!
//! kosumi counts area with positional superko at the root (simple ko inside
//! the tree) and no suicide, whatever the rules say. Two things of the
//! rules change its numbers: the default komi (7.5 under area scoring, 6.5
//! under territory scoring, 7.0 with a button and under New Zealand rules)
//! and the compensation white gets for handicap stones
//! (`whiteHandicapBonus`: none, N, or N-1 points), added to the komi.
//! Territory scoring is approximated by area scoring with the same komi:
//! [`Rules::territory`] lets the caller warn about it.

use serde_json::Value;

/// Points white gets for black's handicap stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    /// None (Japanese, Tromp-Taylor, New Zealand rules).
    Zero,
    /// One per stone (Chinese rules).
    N,
    /// One per stone beyond the first (AGA rules).
    NMinusOne,
}

impl Bonus {
    /// Parse KataGo's `"0"`, `"N"`, `"N-1"`.
    ///
    /// # Errors
    /// A message for anything else.
    pub fn parse(text: &str) -> Result<Bonus, String> {
        match text.trim().to_ascii_uppercase().as_str() {
            "0" => Ok(Bonus::Zero),
            "N" => Ok(Bonus::N),
            "N-1" => Ok(Bonus::NMinusOne),
            _ => Err(format!(
                "Could not parse whiteHandicapBonus: {text} (0, N or N-1)"
            )),
        }
    }

    /// Return white's compensation, in points, for `stones` handicap stones.
    pub fn points(self, stones: u32) -> u32 {
        match self {
            Bonus::Zero => 0,
            Bonus::N => stones,
            Bonus::NMinusOne => stones.saturating_sub(1),
        }
    }
}

/// What kosumi takes from a query's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Territory scoring (Japanese, Korean): counted as area here.
    pub territory: bool,
    /// White's handicap compensation.
    pub bonus: Bonus,
    /// The komi when the query gives none, in half points.
    pub default_komi2: i16,
}

impl Rules {
    /// Tromp-Taylor: area scoring, no bonus, 7.5 (also the base of a JSON
    /// object of options, as in KataGo).
    const TROMP_TAYLOR: Rules = Rules {
        territory: false,
        bonus: Bonus::Zero,
        default_komi2: 15,
    };

    /// Return the rules a KataGo shorthand name stands for.
    ///
    /// # Errors
    /// A message for an unknown name.
    pub fn named(name: &str) -> Result<Rules, String> {
        let area = |bonus, default_komi2| Rules {
            territory: false,
            bonus,
            default_komi2,
        };
        let lower = name.trim().to_ascii_lowercase();
        let rules = match lower.as_str() {
            "japanese" | "korean" | "ancientterritory" | "ancient-territory"
            | "ancient_territory" | "ancient territory" => Rules {
                territory: true,
                bonus: Bonus::Zero,
                default_komi2: 13,
            },
            "chinese" | "chineseogs" | "chinese_ogs" | "chinese-ogs" | "chinesekgs"
            | "chinese_kgs" | "chinese-kgs" => area(Bonus::N, 15),
            "aga" | "bga" | "french" => area(Bonus::NMinusOne, 15),
            "agabutton" | "aga-button" | "aga_button" | "aga button" => area(Bonus::NMinusOne, 14),
            "nz" | "newzealand" | "new zealand" | "new-zealand" | "new_zealand" => {
                area(Bonus::Zero, 14)
            }
            "tromp-taylor" | "tromp_taylor" | "tromp taylor" | "tromptaylor" | "goe" | "ing"
            | "ancientarea" | "ancient-area" | "ancient_area" | "ancient area" | "stonescoring"
            | "stone-scoring" | "stone_scoring" | "stone scoring" => Rules::TROMP_TAYLOR,
            _ => return Err(format!("Could not parse rules: {name}")),
        };
        Ok(rules)
    }

    /// Parse the `rules` field: a shorthand name or an object of KataGo's
    /// rule options (`scoring`/`score`, `whiteHandicapBonus`, `hasButton`
    /// change something; `ko`, `tax`, `suicide`, `friendlyPassOk` are
    /// accepted and have no effect; `komi` gives the default komi).
    ///
    /// # Errors
    /// A message for another type, an unknown name, option or value.
    pub fn parse(value: &Value) -> Result<Rules, String> {
        match value {
            Value::String(name) => Rules::named(name),
            Value::Object(options) => {
                let mut rules = Rules::TROMP_TAYLOR;
                for (key, v) in options {
                    let text = || v.as_str().ok_or_else(|| format!("rules: {key} must be a string"));
                    match key.as_str() {
                        "scoring" | "score" => {
                            rules.territory = match text()?.to_ascii_uppercase().as_str() {
                                "AREA" => false,
                                "TERRITORY" => true,
                                other => return Err(format!("rules: unknown scoring {other}")),
                            };
                        }
                        "whiteHandicapBonus" => rules.bonus = Bonus::parse(text()?)?,
                        "hasButton" => {
                            if v.as_bool().ok_or("rules: hasButton must be a boolean")? {
                                rules.default_komi2 = 14;
                            }
                        }
                        "komi" => {
                            rules.default_komi2 = komi2(v).ok_or(
                                "rules: komi must be an integer or half-integer from -400 to 400",
                            )?;
                        }
                        "ko" | "tax" => {
                            text()?;
                        }
                        "suicide" | "friendlyPassOk" => {
                            v.as_bool()
                                .ok_or_else(|| format!("rules: {key} must be a boolean"))?;
                        }
                        _ => return Err(format!("Unknown rules option: {key}")),
                    }
                }
                if rules.territory && !options.contains_key("komi") {
                    rules.default_komi2 = 13;
                }
                Ok(rules)
            }
            _ => Err("Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.".to_string()),
        }
    }
}

/// Return twice the komi `value`, an integer or half-integer from -400 to
/// 400; `None` for anything else.
pub fn komi2(value: &Value) -> Option<i16> {
    let komi = value.as_f64()?;
    let twice = komi * 2.0;
    ((-400.0..=400.0).contains(&komi) && twice.fract() == 0.0).then_some(twice as i16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_set_komi_bonus_and_scoring() {
        let jp = Rules::named("Japanese").unwrap();
        assert!(jp.territory);
        assert_eq!((jp.bonus, jp.default_komi2), (Bonus::Zero, 13));
        let cn = Rules::named("chinese").unwrap();
        assert!(!cn.territory);
        assert_eq!((cn.bonus, cn.default_komi2), (Bonus::N, 15));
        assert_eq!(Rules::named("aga").unwrap().bonus.points(4), 3);
        assert_eq!(Rules::named("nz").unwrap().default_komi2, 14);
        assert!(Rules::named("go-moku").is_err());
    }

    #[test]
    fn objects_take_options_and_refuse_unknown_ones() {
        let r = Rules::parse(&json!({"scoring": "TERRITORY", "ko": "SIMPLE"})).unwrap();
        assert!(r.territory);
        assert_eq!(r.default_komi2, 13);
        let r = Rules::parse(&json!({"whiteHandicapBonus": "N", "komi": 0.5})).unwrap();
        assert_eq!((r.bonus, r.default_komi2), (Bonus::N, 1));
        assert!(Rules::parse(&json!({"colour": "blue"})).is_err());
        assert!(Rules::parse(&json!({"scoring": 3})).is_err());
        assert!(Rules::parse(&json!(7)).is_err());
    }

    #[test]
    fn komi_must_be_a_half_integer_in_range() {
        assert_eq!(komi2(&json!(7.5)), Some(15));
        assert_eq!(komi2(&json!(-3)), Some(-6));
        assert_eq!(komi2(&json!(7.25)), None);
        assert_eq!(komi2(&json!(401)), None);
        assert_eq!(komi2(&json!("7.5")), None);
    }
}
