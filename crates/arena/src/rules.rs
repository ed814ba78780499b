//! Which reading of the statement to play: the official program's (the default) or the text's,
//! switch by switch.
//!
//! ```
//! use arbiter_arena::rules::{Rules, TieOrder};
//!
//! let rules: Rules = "statement,-rabi-enemy".parse().unwrap();
//! assert!(!rules.rabi_enemy && rules.rabi_narrow && rules.tie == TieOrder::HighestIndex);
//! let sample: Rules = "official,+shadow-any".parse().unwrap();
//! assert!(sample.shadow_any && !sample.rabi_narrow);
//! assert!("official,+no-such".parse::<Rules>().is_err());
//! ```
//!
//! Every field is one point of docs/rules.md#skill-arena; `false` (or [`TieOrder::Gcc`]) is what
//! the official program does, and `+NAME` turns on the other reading, with one exception:
//! strengths are compared exactly in every preset, and `+float-ties` takes the official
//! program's floating-point comparison instead. `statement` turns on S1–S9 and ties to the
//! highest index, the statement's own text at each point where the official program departs
//! from it. The other switches are readings the text leaves open; both presets settle them as the
//! official program does, and they can be toggled one by one to compare.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How equally strong pieces are ordered when a side picks its fighter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TieOrder {
    /// The official program: pieces are listed by cell with GCC's `std::sort`, then each side is
    /// sorted by strength with `std::sort`, and the last one fights. Not stable above 16 pieces.
    #[default]
    Gcc,
    /// The strongest fights; among equals the highest index (`+tie-high`; the statement mode).
    HighestIndex,
    /// The strongest fights; among equals the lowest index (`+tie-low`).
    LowestIndex,
}

/// Declares the boolean switches once: each becomes a field of [`Rules`] (with its docs) and an
/// entry of [`SWITCHES`] (name and one-line description), and `Rules::flag` finds the field by
/// name. A new switch is one more entry here, and a test where the rules are consulted.
macro_rules! switches {
    ($($(#[doc = $doc:literal])+ $field:ident = $name:literal, $about:literal;)+) => {
        /// The rule readings in force. `Rules::default()` is the official program.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct Rules {
            $($(#[doc = $doc])+ pub $field: bool,)+
            /// `tie-high` / `tie-low`: who fights first among equally strong pieces.
            pub tie: TieOrder,
        }

        /// The boolean switches: name, description, and the field.
        const FLAGS: &[(&str, &str, fn(&mut Rules) -> &mut bool)] =
            &[$(($name, $about, |rules: &mut Rules| &mut rules.$field)),+];
    };
}

switches! {
    /// S1 `rabi-enemy`. Text: rabiribi knocks back enemies only. Official: every piece in the
    /// sector, allies included.
    rabi_enemy = "rabi-enemy", "S1: rabiribi pushes enemies only";
    /// S2 `rabi-alive`. Text: dead pieces are unaffected by skills. Official: rabiribi knocks
    /// back dead pieces too, and they revive where they landed.
    rabi_alive = "rabi-alive", "S2: rabiribi leaves dead pieces alone";
    /// S3 `rabi-shadow`. Text (and figure): an obstacle inside the sector hides the cone behind
    /// it. Official: no shadowing.
    rabi_shadow = "rabi-shadow", "S3: an obstacle in the sector hides the cone behind it";
    /// S4 `rabi-narrow`. Text (figure): rows of 1, 3, 5, … cells, sideways ≤ forward − 1.
    /// Official: sideways ≤ forward.
    rabi_narrow = "rabi-narrow", "S4: sector rows of 1, 3, 5, ... cells";
    /// S5 `rabi-down`. Text: the sector is in front of the caster. Official: a caster facing
    /// down uses the sector to its right, and still pushes down.
    rabi_down = "rabi-down", "S5: a caster facing down uses the sector below it";
    /// S6 `wave-cw`. Text: the 2dsaigao wave turns 90° clockwise when blocked. Official:
    /// (dx, dy) → (dy, −dy), a clockwise turn for up-left/down-right, a reversal otherwise.
    wave_cw = "wave-cw", "S6: the 2dsaigao wave turns clockwise";
    /// S7 `punch-b`. Text: when a boost of v expires, (a, b) → (max(a − v, 0),
    /// min(b, max(a − v, 0))). Official: b → min(b, max(a′ − v, 0)) with a′ the new a.
    punch_b = "punch-b", "S7: onepunch expiry subtracts v from b once";
    /// S8 `fight-best`. Text: each duel is between the strongest living piece of each side.
    /// Official: each side is sorted once; the winner stays champion, weakened, until it dies.
    fight_best = "fight-best", "S8: every duel takes the strongest living piece of each side";
    /// S9 `effect-max`. Text: an effect of l cast at round H ends at the start of H + l, so
    /// repeated effects end at the latest end. Official: the durations add up.
    effect_max = "effect-max", "S9: repeated silence/freeze end at the latest end";
    /// `shadow-any`. Not in either reading: every obstacle ahead of the caster, inside the
    /// sector or not, hides its cone. Reproduces the published sample's 4th game.
    shadow_any = "shadow-any", "every obstacle ahead hides its cone (the published sample)";
    /// `hup-alive`. Off (official): hupraise matches all pieces, dead included. On: living only.
    hup_alive = "hup-alive", "hupraise matches living pieces only";
    /// `hup-orig`. Off (official): hupraise uses the current a. On: the starting a.
    hup_orig = "hup-orig", "hupraise uses the starting a";
    /// `face-dead`. Off (official): faceking turns living pieces only. On: dead ones too.
    face_dead = "face-dead", "faceking turns dead pieces too";
    /// `fire-alive`. Off (official): firework freezes the last toolihai caster even when it is
    /// dead (wasted). On: a dead last caster counts as none, and the caster freezes itself.
    fire_alive = "fire-alive", "firework on a dead toolihai caster freezes the caster";
    /// `fire-full`. Off (official): a freeze of l cast at round H ends at the start of H + l, so
    /// it costs l − 1 moves. On: it lasts the next l rounds' moves.
    fire_full = "fire-full", "a freeze of l costs l moves";
    /// `hist-pre`. Off (official): backward restores the state logged after the respawns and
    /// countdowns of round H − l. On: the state before them.
    hist_pre = "hist-pre", "backward restores the state before the round's respawns";
    /// `cd-reset`. Off (official): a dead piece's cooldown keeps running and is kept at respawn.
    /// On: respawn restarts the cooldown at z.
    cd_reset = "cd-reset", "respawn restarts the cooldown at z";
    /// `respawn-idle`. Off (official): a piece respawning at the start of a round moves and may
    /// cast in that round. On: it waits for the next round.
    respawn_idle = "respawn-idle", "a respawning piece waits a round";
    /// `keep-silence`. Off (official): respawn clears silence. On: it is kept.
    keep_silence = "keep-silence", "respawn keeps silence";
    /// `keep-freeze`. Off (official): respawn clears freeze. On: it is kept.
    keep_freeze = "keep-freeze", "respawn keeps freeze";
    /// `float-ties`. Off (every preset): strengths C(a, b) are compared exactly. On: as the
    /// official program compares them, by logarithms of factorials in x87 extended precision
    /// with a tolerance of 1e-8 ([`crate::float_ties`]), so that near-ties such as
    /// C(974, 36) < C(229, 92) count as ties, as the official judge's answers have them.
    float_ties = "float-ties", "strengths compared as the official program's logarithms, within 1e-8";
}

/// The orders of equally strong pieces other than the official one, as switches.
const TIE_SWITCHES: [(&str, &str, TieOrder); 2] = [
    ("tie-high", "ties go to the highest index", TieOrder::HighestIndex),
    ("tie-low", "ties go to the lowest index", TieOrder::LowestIndex),
];

/// Every switch name with a one-line description: S1–S9 in the order of the table in
/// docs/rules.md#official-behaviour-against-the-statement, the other boolean readings, then the
/// tie orders.
pub const SWITCHES: [(&str, &str); FLAGS.len() + TIE_SWITCHES.len()] = {
    let mut all = [("", ""); FLAGS.len() + TIE_SWITCHES.len()];
    let mut i = 0;
    while i < FLAGS.len() {
        all[i] = (FLAGS[i].0, FLAGS[i].1);
        i += 1;
    }
    let mut t = 0;
    while t < TIE_SWITCHES.len() {
        all[i + t] = (TIE_SWITCHES[t].0, TIE_SWITCHES[t].1);
        t += 1;
    }
    all
};

/// A `--rules` value that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A switch name that does not exist.
    #[error("unknown rule switch `{0}` (known: {known})", known = SWITCHES.map(|(name, _)| name).join(", "))]
    Unknown(String),
    /// An item that is neither a preset nor `+NAME` / `-NAME`.
    #[error("`{0}`: expected `official`, `statement`, `+NAME` or `-NAME`")]
    Syntax(String),
}

impl Rules {
    /// The official program's behaviour.
    pub fn official() -> Rules {
        Rules::default()
    }

    /// The statement's text at S1–S9, ties to the highest index.
    pub fn statement() -> Rules {
        Rules {
            rabi_enemy: true,
            rabi_alive: true,
            rabi_shadow: true,
            rabi_narrow: true,
            rabi_down: true,
            wave_cw: true,
            punch_b: true,
            fight_best: true,
            effect_max: true,
            tie: TieOrder::HighestIndex,
            ..Rules::default()
        }
    }

    /// Turns the switch `name` to the other reading (`on`) or the official one; `false` if
    /// there is no such switch.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        if let Some((_, _, field)) = FLAGS.iter().find(|(flag, _, _)| *flag == name) {
            *field(self) = on;
            return true;
        }
        let Some(&(_, _, order)) = TIE_SWITCHES.iter().find(|(tie, _, _)| *tie == name) else {
            return false;
        };
        if on {
            self.tie = order;
        } else if self.tie == order {
            self.tie = TieOrder::Gcc;
        }
        true
    }

    /// Whether the switch `name` is on (the non-official reading).
    pub fn get(&self, name: &str) -> bool {
        let mut copy = *self;
        // Turning a switch on changes nothing exactly when it is already on.
        copy.set(name, true) && copy == *self
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// `official` or `statement`, optionally followed by `,+NAME` / `,-NAME` items; a list of
    /// switches alone starts from `official`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::official();
        for (i, item) in text.split(',').map(str::trim).enumerate() {
            match item {
                "official" if i == 0 => rules = Rules::official(),
                "statement" if i == 0 => rules = Rules::statement(),
                _ => {
                    let (on, name) = match (item.strip_prefix('+'), item.strip_prefix('-')) {
                        (Some(name), _) => (true, name),
                        (_, Some(name)) => (false, name),
                        _ => return Err(RulesError::Syntax(item.to_owned())),
                    };
                    if !rules.set(name, on) {
                        return Err(RulesError::Unknown(name.to_owned()));
                    }
                }
            }
        }
        Ok(rules)
    }
}

/// In JSON, the `--rules` text ([`fmt::Display`] and [`FromStr`]), e.g. `"official,+shadow-any"`.
impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Rules {
    /// `official` followed by `+NAME` for every switch that is on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("official")?;
        for (name, _) in SWITCHES {
            if self.get(name) {
                write!(f, ",+{name}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_round_trips() {
        for (name, _) in SWITCHES {
            let rules: Rules = format!("+{name}").parse().unwrap();
            assert!(rules.get(name), "{name}");
            assert_ne!(rules, Rules::official(), "{name}");
            assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
            let back: Rules = format!("+{name},-{name}").parse().unwrap();
            assert_eq!(back, Rules::official(), "{name}");
        }
        assert_eq!(Rules::statement().to_string().parse::<Rules>().unwrap(), Rules::statement());
    }

    #[test]
    fn errors_name_the_item() {
        assert_eq!("+nope".parse::<Rules>(), Err(RulesError::Unknown("nope".into())));
        assert_eq!(
            "official,statement".parse::<Rules>(),
            Err(RulesError::Syntax("statement".into()))
        );
        assert!("official,rabi-enemy".parse::<Rules>().is_err());
    }
}
