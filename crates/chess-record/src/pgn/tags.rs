//! The tag section of a game: the tags that decide how its movetext is read.

use std::borrow::Cow;

use arbiter_scan::Place;
use pgn_reader::RawTag;

use crate::shown::escaped;
use crate::variant::{GameVariant, ParseVariantError, Start};

use super::lex::{Kind, Lexer, SyntaxError, Token};
use super::listener::Listener;
use super::report::Problem;

/// A tag value as written between its quotes, its escapes (`\"`, `\\`) read.
///
/// ```
/// use arbiter_chess_record::pgn::tag_value;
///
/// assert_eq!(&*tag_value(br#"A \"B\""#), br#"A "B""#);
/// ```
pub fn tag_value(raw: &[u8]) -> Cow<'_, [u8]> {
    RawTag(raw).decode()
}

/// The tags that decide how a game is read, as they were found.
#[derive(Debug, Default)]
pub(crate) struct Tags {
    pub(crate) white: Option<String>,
    pub(crate) black: Option<String>,
    fen: Option<(Place, Vec<u8>)>,
    variant: Option<(Place, Vec<u8>)>,
    /// The `Site` tag, when it is a URL.
    pub(crate) site: Option<String>,
    pub(crate) game_id: Option<String>,
    /// The `Result` tag, with its place.
    pub(crate) result: Option<(Place, String)>,
}

impl Tags {
    /// Reads the tag section: tags and comments, up to the first token of any other kind, which
    /// starts the movetext and is returned with the tags (`None` at the end of the game).
    /// `listener` hears each tag pair.
    pub(crate) fn read_section<'a>(
        lexer: &mut Lexer<'a>,
        listener: &mut impl Listener,
    ) -> (Tags, Option<Result<Token<'a>, Box<SyntaxError>>>) {
        let mut tags = Tags::default();
        let first = loop {
            match lexer.next() {
                Some(Ok(Token { kind: Kind::Tag { name, value }, at, .. })) => {
                    listener.tag(name, value);
                    tags.read(name, value, at);
                }
                Some(Ok(Token { kind: Kind::Comment, .. })) => {}
                other => break other,
            }
        };
        (tags, first)
    }

    /// Takes a tag pair into account.
    pub(super) fn read(&mut self, name: &[u8], value: &[u8], at: Place) {
        let text = || escaped(&RawTag(value).decode());
        match name {
            b"White" => self.white = Some(text()),
            b"Black" => self.black = Some(text()),
            b"FEN" => self.fen = Some((at, RawTag(value).decode().into_owned())),
            b"Variant" => self.variant = Some((at, RawTag(value).decode().into_owned())),
            b"Site" => {
                let site = text();
                if site.starts_with("https://") || site.starts_with("http://") {
                    self.site = Some(site);
                }
            }
            b"GameId" => self.game_id = Some(text()),
            b"Result" => self.result = Some((at, text())),
            _ => {}
        }
    }

    /// The game's variant.
    pub(crate) fn variant(&self) -> Result<GameVariant, Problem> {
        let Some((at, name)) = &self.variant else {
            return Ok(GameVariant::Standard);
        };
        match std::str::from_utf8(name) {
            Ok(name) => name.parse().map_err(|error| Problem::Variant { at: *at, error }),
            Err(_) => Err(Problem::Variant { at: *at, error: ParseVariantError(escaped(name)) }),
        }
    }

    /// The position the game starts from.
    pub(crate) fn start(&self) -> Result<Start, Problem> {
        let variant = self.variant()?;
        let fen = self.fen.as_ref().map(|(_, fen)| fen.as_slice());
        variant.start(fen).map_err(|error| Problem::Fen {
            at: self.fen.as_ref().map_or(Place { line: 1, column: 1 }, |(at, _)| *at),
            message: error.to_string(),
        })
    }
}
