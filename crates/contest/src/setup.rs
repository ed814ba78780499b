//! What a contestant chooses of a game's inputs: a profile, a size and the game's own options,
//! which together make its [`Problem`].
//!
//! ```
//! use arbiter_contest::duck::{DuckProblem, DuckProfile, DuckSize};
//! use arbiter_contest::setup::Setup;
//!
//! let (profile, name, _) = DuckProblem::PROFILES[0];
//! assert_eq!(name, "mixed");
//! assert_eq!(DuckProblem::choose(profile, Some(DuckSize(3)), &()), DuckProblem::new(profile, Some(3)));
//! ```

use std::fmt::{Debug, Display};
use std::str::FromStr;

use crate::problem::Problem;

/// One of arbiter's games as a contestant sets it up: profile, size and options choose its problem.
pub trait Setup: Problem + Clone + Debug + Send + Sync + 'static {
    /// What the inputs aim at.
    type Profile: Copy + Debug + Display + Send + Sync + 'static;
    /// How large the inputs are; written back as it is read.
    type Size: Copy + Debug + Display + FromStr<Err: Display> + Send + Sync + 'static;
    /// Options of this game only (the arena's rules); `()` for none.
    type Options: Clone + Debug + Send + Sync + 'static;

    /// What a size is called, e.g. `Q`.
    const SIZE_NAME: &'static str;

    /// What a size sets, in one sentence.
    const SIZE_HELP: &'static str;

    /// The profiles with their names and descriptions.
    const PROFILES: &'static [(Self::Profile, &'static str, &'static str)];

    /// The problem of these choices; no size means the profile's own.
    fn choose(profile: Self::Profile, size: Option<Self::Size>, options: &Self::Options) -> Self;

    /// The problem a checker answers with: answers do not depend on the profile or the size.
    fn for_check(options: &Self::Options) -> Self {
        let (profile, _, _) = Self::PROFILES.first().expect("every game has a profile");
        Self::choose(*profile, None, options)
    }
}
