//! Which generated inputs become tests: for each choice of a game's plan (a profile aimed at some
//! corners of the rules, and a size that may put a limit at its extreme), the inputs of its first
//! seeds, each named for what it is the first to reach.

use super::Packaged;

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
/// each choice of the plan, as many inputs as the plan says, valid and usable, preferring those
/// that reach a corner no earlier test reaches, then the first seeds. A test is named for the
/// first corner it is the first to reach, or else for its profile and seed.
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
        // (seed, input, whether it was rewritten, the corners it is the first to reach)
        let mut picked: Vec<(u64, String, bool, Vec<usize>)> = Vec::new();
        let mut spare = Vec::new();
        for seed in 1..=TRIES {
            if picked.len() == most {
                break;
            }
            let case = problem.generate(seed);
            let mut bytes = Vec::new();
            problem.write_input(&case, &mut bytes);
            let Ok(generated) = String::from_utf8(bytes) else { continue };
            let input = G::normalize(&generated);
            let Ok(corners) = G::corners(input.as_bytes()) else { continue };
            if !G::usable(&input) {
                continue;
            }
            let rewritten = input != generated;
            let new: Vec<usize> =
                (0..corners.len()).filter(|&i| corners[i] && !reached[i]).collect();
            if new.is_empty() {
                if spare.len() < most {
                    spare.push((seed, input, rewritten, new));
                }
                continue;
            }
            for &i in &new {
                reached[i] = true;
            }
            picked.push((seed, input, rewritten, new));
        }
        let missing = most - picked.len();
        picked.extend(spare.into_iter().take(missing));
        picked.sort_by_key(|(seed, ..)| *seed);
        for (seed, input, rewritten, new) in picked {
            let what = match new.first() {
                Some(&i) => slug(G::CORNERS[i]),
                None => format!("seed{seed}"),
            };
            let size_args = size_text.map(|text| format!(" --size {text}")).unwrap_or_default();
            let note = if rewritten { G::NORMALIZED } else { "" };
            chosen.push(Chosen {
                name: format!("{:02}-{profile_name}-{what}", chosen.len() + 1),
                args: format!("--profile {profile_name}{size_args} --seed {seed}{note}"),
                input,
            });
        }
    }
    chosen
}

/// A test name's part made of `text`: lower-case letters and digits, runs of anything else
/// one `-` (`Q = 1000` → `q-1000`, `invalid: off the pattern` → `invalid-off-the-pattern`).
pub fn slug(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_keep_letters_and_digits() {
        assert_eq!(slug("Q = 1000"), "q-1000");
        assert_eq!(slug("invalid: off the pattern"), "invalid-off-the-pattern");
        assert_eq!(
            slug("equal strengths from different (a, b)"),
            "equal-strengths-from-different-a-b"
        );
    }
}
