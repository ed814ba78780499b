//! How moves and sides are written in this crate's JSON: a move as its official command
//! `"x1 y1 x2 y2"`, a side as `"red"` or `"blue"` (for `#[serde(with = ...)]`).

/// A [`Move`](arbiter_duck::Move) as its official command.
pub mod command {
    use arbiter_duck::Move;
    use serde::{Deserialize, Deserializer, Serializer, de};

    /// Writes `"x1 y1 x2 y2"`.
    pub fn serialize<S: Serializer>(mv: &Move, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(mv)
    }

    /// Reads either notation (`"9 4 8 4"` or `"e10e9"`).
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|error| de::Error::custom(format!("move `{text}`: {error}")))
    }
}

/// A list of moves as official commands.
pub mod commands {
    use arbiter_duck::Move;
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serializer, de};

    /// Writes `["x1 y1 x2 y2", ...]`.
    pub fn serialize<S: Serializer>(moves: &[Move], serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(moves.len()))?;
        for mv in moves {
            seq.serialize_element(&mv.to_string())?;
        }
        seq.end()
    }

    /// Reads a list of moves in either notation.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Move>, D::Error> {
        Vec::<String>::deserialize(deserializer)?
            .iter()
            .map(|text| {
                text.parse().map_err(|error| de::Error::custom(format!("move `{text}`: {error}")))
            })
            .collect()
    }
}

/// A [`Color`](arbiter_duck::Color) as its name.
pub mod color {
    use arbiter_duck::Color;
    use serde::{Deserialize, Deserializer, Serializer, de};

    /// Writes `"red"` or `"blue"`.
    pub fn serialize<S: Serializer>(color: &Color, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(color.name())
    }

    /// Reads `"red"` or `"blue"`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Color, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "red" => Ok(Color::Red),
            "blue" => Ok(Color::Blue),
            other => Err(de::Error::custom(format!("expected red or blue, found `{other}`"))),
        }
    }
}
