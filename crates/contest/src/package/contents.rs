//! What a problem package holds, whatever its layout: the statement, the tests with their
//! answers and origins, the solutions, and the coverage of the tests.

use super::{Packaged, select};

/// A statement's sections, in LaTeX (the subset both Kattis and Polygon render).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The game and its rules.
    pub legend: String,
    /// The input format.
    pub input: String,
    /// The output format.
    pub output: String,
    /// Remarks on the samples and limits.
    pub notes: String,
}

/// Where a test comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The statement's sample.
    Sample,
    /// The official judge data, file `name`.
    Official(&'static str),
    /// Written by hand for a corner no profile reaches.
    Handwritten,
    /// `arbiter <game> gen` with these arguments (`--profile P [--size S] --seed N`).
    Generated(String),
}

/// One test: input, answer, origin, and the corners it was kept for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    /// Its name, which says what it covers, without extension.
    pub name: String,
    /// The input.
    pub input: String,
    /// arbiter's answer.
    pub answer: String,
    /// Where it comes from.
    pub origin: Origin,
    /// The corners that no earlier test reached and this one does.
    pub new_corners: Vec<&'static str>,
}

/// What a solution should get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted on every test.
    Accepted,
    /// A wrong answer on at least one test.
    WrongAnswer,
}

/// The program of a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    /// A C++ source file.
    Cpp(String),
    /// A `sh` script reading the input on standard input, which needs `arbiter` on the `PATH`.
    Shell(String),
}

/// A solution shipped with a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Its file name without extension.
    pub name: &'static str,
    /// What it should get.
    pub verdict: Verdict,
    /// The program.
    pub code: Code,
}

/// Everything a package holds.
#[derive(Debug, Clone)]
pub struct Contents {
    /// The game on arbiter's command line: `duck`, `chess` or `arena`.
    pub game: &'static str,
    /// The title.
    pub title: &'static str,
    /// The short name.
    pub short_name: &'static str,
    /// The problem's identity for judge systems, the same in every package of the game.
    pub uuid: &'static str,
    /// The time limit, in seconds.
    pub time_limit_seconds: u32,
    /// The memory limit, in MiB.
    pub memory_limit_mib: u32,
    /// The statement.
    pub statement: Statement,
    /// The samples.
    pub samples: Vec<Test>,
    /// The secret tests: the official data, the handwritten tests, then the generated tests.
    pub secret: Vec<Test>,
    /// The solutions.
    pub solutions: Vec<Solution>,
    /// The corners' names and, for each, the first secret or sample test that reaches it.
    pub coverage: Vec<(&'static str, Option<String>)>,
}

impl Contents {
    /// The coverage as a table: one line per corner, with the first test that reaches it.
    pub fn coverage_table(&self) -> String {
        let width = self.coverage.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0);
        let mut table = String::new();
        for (name, first) in &self.coverage {
            let pad = width - name.chars().count();
            let first = first.as_deref().unwrap_or("- (no test reaches it)");
            table.push_str(&format!("{name}{:pad$}  {first}\n", ""));
        }
        table
    }

    /// One line per generated test: its name and the command that prints its input again.
    pub fn seeds(&self) -> String {
        let mut lines = String::new();
        for test in &self.secret {
            if let Origin::Generated(args) = &test.origin {
                lines.push_str(&format!("{}: arbiter {} gen {args}\n", test.name, self.game));
            }
        }
        lines
    }
}

/// Gathers the contents of game `G`'s package.
pub fn gather<G: Packaged>() -> Contents {
    let answerer = G::for_check(&G::options());
    let answer = |input: &str| {
        // The official data and the samples are fixed files that the tests of this crate judge,
        // and generated inputs are judged before they are kept: an input arbiter cannot answer
        // here is a fault in arbiter, not in anything a user gave.
        answerer.answer(input).expect("a package's inputs are answerable")
    };
    let mut reached: Vec<Option<String>> = vec![None; G::CORNERS.len()];
    let samples: Vec<Test> = G::samples()
        .into_iter()
        .map(|(name, input)| Test {
            name: name.to_owned(),
            answer: answer(input),
            input: input.to_owned(),
            origin: Origin::Sample,
            new_corners: mark::<G>(&mut reached, &format!("sample/{name}"), input),
        })
        .collect();
    // An official file that is also a sample is a sample only: a test is in one group.
    let mut secret: Vec<Test> = G::official()
        .into_iter()
        .filter(|(_, input)| G::samples().iter().all(|(_, sample)| sample != input))
        .map(|(name, input)| {
            let test_name = format!("official-{name}");
            Test {
                new_corners: mark::<G>(&mut reached, &format!("secret/{test_name}"), input),
                name: test_name,
                answer: answer(input),
                input: input.to_owned(),
                origin: Origin::Official(name),
            }
        })
        .collect();
    for (name, input) in G::handwritten() {
        let name = name.to_owned();
        secret.push(Test {
            new_corners: mark::<G>(&mut reached, &format!("secret/{name}"), input),
            name,
            answer: answer(input),
            input: input.to_owned(),
            origin: Origin::Handwritten,
        });
    }
    let reached_before: Vec<bool> = reached.iter().map(Option::is_some).collect();
    for chosen in select::choose::<G>(&reached_before) {
        let input = chosen.input;
        let new_corners = mark::<G>(&mut reached, &format!("secret/{}", chosen.name), &input);
        secret.push(Test {
            name: chosen.name,
            answer: answer(&input),
            input,
            origin: Origin::Generated(chosen.args),
            new_corners,
        });
    }
    Contents {
        game: G::NAME,
        title: G::TITLE,
        short_name: G::SHORT_NAME,
        uuid: G::UUID,
        time_limit_seconds: G::TIME_LIMIT_SECONDS,
        memory_limit_mib: G::MEMORY_LIMIT_MIB,
        statement: G::statement(),
        samples,
        secret,
        solutions: G::solutions(),
        coverage: G::CORNERS.iter().copied().zip(reached).collect(),
    }
}

/// Records in `reached` the corners `input` reaches that no earlier test reaches, as reached
/// first by test `name`; returns them.
fn mark<G: Packaged>(reached: &mut [Option<String>], name: &str, input: &str) -> Vec<&'static str> {
    // The samples and the official data are fixed files that this crate's tests validate, and
    // generated inputs are validated before they are chosen.
    let corners = G::corners(input.as_bytes()).expect("a package's inputs are valid");
    let mut new = Vec::new();
    for (i, hit) in corners.into_iter().enumerate() {
        if hit && reached[i].is_none() {
            reached[i] = Some(name.to_owned());
            new.push(G::CORNERS[i]);
        }
    }
    new
}
