//! Which generated inputs become tests: for each choice of a game's plan (a profile aimed at some
//! corners of the rules, and a size that may put a limit at its extreme), the inputs of its first
//! seeds, each named for what it is the first to reach.

use super::Packaged;
use super::contents::slug;

/// Seeds tried for each choice of the plan at most: an input the strict validator refuses, or
/// one that is not usable (an arena near-tie), is skipped.
const TRIES: u64 = 12;

/// A generated input kept as a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The test's name: its number, profile and the first corner it is the first to reach.
    pub name: String,
    /// `gen`'s arguments that print the input again.
    pub args: String,
    /// The input.
    pub input: String,
}

/// The generated tests of game `G`, given which corners earlier tests (`reached`) reach: for
/// each choice of the plan, the inputs of its first seeds that are valid and usable, as many as
/// the plan says. A test is named for the first corner it is the first to reach, or else for its
/// profile and seed (or size).
pub fn choose<G: Packaged>(reached: &[bool]) -> Vec<Chosen> {
    let mut reached = reached.to_vec();
    let mut chosen = Vec::new();
    for &(profile_name, size_text, most) in G::PLAN {
        let profile = G::PROFILES
            .iter()
            .find(|(_, name, _)| *name == profile_name)
            .map(|&(profile, _, _)| profile)
            .expect("a plan names its game's profiles");
        let size =
            size_text.map(|text| text.parse::<G::Size>().ok().expect("a plan's sizes parse"));
        let problem = G::choose(profile, size, &G::options());
        let mut kept = 0;
        for seed in 1..=TRIES {
            if kept == most {
                break;
            }
            let case = problem.generate(seed);
            let mut bytes = Vec::new();
            problem.write_input(&case, &mut bytes);
            let Ok(input) = String::from_utf8(bytes) else { continue };
            let Ok(corners) = G::corners(input.as_bytes()) else { continue };
            if !G::usable(&input) {
                continue;
            }
            let new: Vec<usize> =
                (0..corners.len()).filter(|&i| corners[i] && !reached[i]).collect();
            for &i in &new {
                reached[i] = true;
            }
            kept += 1;
            let what = match new.first() {
                Some(&i) => slug(G::CORNERS[i]),
                None => size_text.map_or_else(|| format!("seed{seed}"), slug),
            };
            let size_args = size_text.map(|text| format!(" --size {text}")).unwrap_or_default();
            chosen.push(Chosen {
                name: format!("{:02}-{profile_name}-{what}", chosen.len() + 1),
                args: format!("--profile {profile_name}{size_args} --seed {seed}"),
                input,
            });
        }
    }
    chosen
}
