//! The ten skills and their parameters, as the input names them.
//!
//! ```
//! use arbiter_arena::skill::{Skill, SkillKind};
//!
//! let kind: SkillKind = "2dsaigao".parse().unwrap();
//! assert_eq!(kind.arity(), 3);
//! let skill = Skill::from_args(kind, &[4, 1, 2]).unwrap();
//! assert_eq!(skill, Skill::Dsaigao { distance: 4, radius: 1, rounds: 2 });
//! assert_eq!(skill.kind().name(), "2dsaigao");
//! ```
//!
//! What each skill does lives in [`crate::cast`], one function per skill.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The name of a skill, without its parameters. In JSON, its name in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SkillKind {
    /// 重锤火花: fireworks, no effect (but firework remembers who cast it last).
    Toolihai,
    /// 面子之王: every piece turns 90° counter-clockwise.
    Faceking,
    /// 头发掉光: a temporary boost of a.
    Onepunch,
    /// 拉比哩比: knocks back the pieces in a sector in front.
    Rabiribi,
    /// 退学花火: freezes the last toolihai caster (or the caster).
    Firework,
    /// 救乌干达: revives a dead piece.
    Viuganda,
    /// 降维打击: a bouncing wave that silences pieces around where it stops.
    #[serde(rename = "2dsaigao")]
    Dsaigao,
    /// 咕咕咕咕: the rest of the team skips casting this round.
    Gugugugu,
    /// 反向传播: the caster goes back to an earlier round's state.
    Backward,
    /// 葱之礼赞: prints the size of a maximum red-blue matching.
    Hupraise,
}

impl SkillKind {
    /// Every skill, in the statement's order.
    pub const ALL: [SkillKind; 10] = [
        SkillKind::Toolihai,
        SkillKind::Faceking,
        SkillKind::Onepunch,
        SkillKind::Rabiribi,
        SkillKind::Firework,
        SkillKind::Viuganda,
        SkillKind::Dsaigao,
        SkillKind::Gugugugu,
        SkillKind::Backward,
        SkillKind::Hupraise,
    ];

    /// The skill's name in the input.
    pub const fn name(self) -> &'static str {
        match self {
            SkillKind::Toolihai => "toolihai",
            SkillKind::Faceking => "faceking",
            SkillKind::Onepunch => "onepunch",
            SkillKind::Rabiribi => "rabiribi",
            SkillKind::Firework => "firework",
            SkillKind::Viuganda => "viuganda",
            SkillKind::Dsaigao => "2dsaigao",
            SkillKind::Gugugugu => "gugugugu",
            SkillKind::Backward => "backward",
            SkillKind::Hupraise => "hupraise",
        }
    }

    /// How many integers follow the name in the input.
    pub const fn arity(self) -> usize {
        self.parameters().len()
    }

    /// What the integers after the name mean, in order.
    pub const fn parameters(self) -> &'static [&'static str] {
        match self {
            SkillKind::Onepunch => &["v (the boost)", "l (its duration)"],
            SkillKind::Rabiribi => &["v (the sector's size)"],
            SkillKind::Firework => &["l (the freeze's duration)"],
            SkillKind::Dsaigao => {
                &["o (the wave's distance)", "v (the blast radius)", "l (the silence's duration)"]
            }
            SkillKind::Backward => &["l (how many rounds back)"],
            _ => &[],
        }
    }

    /// The smallest value each parameter may take: durations of onepunch, firework and 2dsaigao
    /// are positive, everything else is non-negative.
    pub const fn minimum(self, index: usize) -> i64 {
        match (self, index) {
            (SkillKind::Onepunch, 1) | (SkillKind::Firework, 0) | (SkillKind::Dsaigao, 2) => 1,
            _ => 0,
        }
    }
}

impl SkillKind {
    /// The largest value each parameter may take: a boost is at most 1000 (the statement), other
    /// parameters at most [`MAX_PARAMETER`].
    pub const fn maximum(self, index: usize) -> i64 {
        match (self, index) {
            (SkillKind::Onepunch, 0) => MAX_BOOST,
            _ => MAX_PARAMETER,
        }
    }
}

impl fmt::Display for SkillKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the ten skills.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown skill `{0}`")]
pub struct UnknownSkill(pub String);

impl FromStr for SkillKind {
    type Err = UnknownSkill;

    fn from_str(name: &str) -> Result<SkillKind, UnknownSkill> {
        SkillKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownSkill(name.to_owned()))
    }
}

/// A skill with its parameters. In JSON, an object with the skill's input name as `name` and
/// its parameters by their field names: `{"name": "onepunch", "boost": 3, "rounds": 2}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum Skill {
    /// See [`SkillKind::Toolihai`].
    Toolihai,
    /// See [`SkillKind::Faceking`].
    Faceking,
    /// See [`SkillKind::Onepunch`]: a += `boost` for `rounds` rounds.
    Onepunch {
        /// v.
        boost: u32,
        /// l.
        rounds: u32,
    },
    /// See [`SkillKind::Rabiribi`]: sector of `size` rows.
    Rabiribi {
        /// v.
        size: u32,
    },
    /// See [`SkillKind::Firework`].
    Firework {
        /// l.
        rounds: u32,
    },
    /// See [`SkillKind::Viuganda`].
    Viuganda,
    /// See [`SkillKind::Dsaigao`].
    #[serde(rename = "2dsaigao")]
    Dsaigao {
        /// o: how many steps the wave travels.
        distance: u32,
        /// v: Manhattan radius of the blast.
        radius: u32,
        /// l: how long the silence lasts.
        rounds: u32,
    },
    /// See [`SkillKind::Gugugugu`].
    Gugugugu,
    /// See [`SkillKind::Backward`].
    Backward {
        /// l.
        rounds: u32,
    },
    /// See [`SkillKind::Hupraise`].
    Hupraise,
}

/// Largest skill parameter accepted other than onepunch's boost. The statement gives no bound;
/// this is the largest value the official program's `int` holds (see the crate docs, "Input
/// limits"). Durations add up in 64 bits, and a wave longer than the board's cycle skips whole
/// cycles, so any such value plays in bounded time.
pub const MAX_PARAMETER: i64 = i32::MAX as i64;

/// Largest onepunch boost (the statement: boosts do not exceed 1000).
pub const MAX_BOOST: i64 = 1000;

impl Skill {
    /// The skill `kind` with the integers that followed its name; `None` if their number is wrong
    /// or one is out of range.
    pub fn from_args(kind: SkillKind, args: &[i64]) -> Option<Skill> {
        if args.len() != kind.arity() {
            return None;
        }
        for (i, &arg) in args.iter().enumerate() {
            if arg < kind.minimum(i) || arg > kind.maximum(i) {
                return None;
            }
        }
        let arg = |i: usize| args[i] as u32;
        Some(match kind {
            SkillKind::Toolihai => Skill::Toolihai,
            SkillKind::Faceking => Skill::Faceking,
            SkillKind::Onepunch => Skill::Onepunch { boost: arg(0), rounds: arg(1) },
            SkillKind::Rabiribi => Skill::Rabiribi { size: arg(0) },
            SkillKind::Firework => Skill::Firework { rounds: arg(0) },
            SkillKind::Viuganda => Skill::Viuganda,
            SkillKind::Dsaigao => {
                Skill::Dsaigao { distance: arg(0), radius: arg(1), rounds: arg(2) }
            }
            SkillKind::Gugugugu => Skill::Gugugugu,
            SkillKind::Backward => Skill::Backward { rounds: arg(0) },
            SkillKind::Hupraise => Skill::Hupraise,
        })
    }

    /// The skill's name.
    pub const fn kind(self) -> SkillKind {
        match self {
            Skill::Toolihai => SkillKind::Toolihai,
            Skill::Faceking => SkillKind::Faceking,
            Skill::Onepunch { .. } => SkillKind::Onepunch,
            Skill::Rabiribi { .. } => SkillKind::Rabiribi,
            Skill::Firework { .. } => SkillKind::Firework,
            Skill::Viuganda => SkillKind::Viuganda,
            Skill::Dsaigao { .. } => SkillKind::Dsaigao,
            Skill::Gugugugu => SkillKind::Gugugugu,
            Skill::Backward { .. } => SkillKind::Backward,
            Skill::Hupraise => SkillKind::Hupraise,
        }
    }
}
