//! The Kattis problem package format (its legacy version, which DOMjudge and Kattis'
//! `verifyproblem` read): `problem.yaml`, the statement in LaTeX, `data/sample` and
//! `data/secret`, an input format validator and the solutions under `submissions/`.
//!
//! Output is judged by the format's default validator, case-sensitively: every input has exactly
//! one right output, and the default validator compares tokens, as arbiter's own `check` does.
//! The input format validator runs `arbiter <game> validate`, so the judge host needs `arbiter`
//! on its `PATH`; so do the solutions written as shell scripts (chess).

use super::Package;
use super::contents::{Code, Contents, Test, Verdict};

/// The package of `contents` in the Kattis format.
pub fn layout(contents: &Contents) -> Package {
    let mut package = Package::default();
    package.add("problem.yaml", problem_yaml(contents));
    // DOMjudge reads the time limit from this file; Kattis derives its own from the solutions.
    package.add(".timelimit", format!("{}\n", contents.time_limit_seconds));
    package.add("problem_statement/problem.en.tex", statement(contents));
    add_tests(&mut package, "data/sample", &contents.samples);
    add_tests(&mut package, "data/secret", &contents.secret);
    package.add("seeds.txt", seeds(contents));
    let game = contents.game;
    package.add_executable("input_validators/arbiter/build", BUILD);
    package.add_executable("input_validators/arbiter/run", validator(game));
    for solution in &contents.solutions {
        let verdict = match solution.verdict {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong_answer",
        };
        let dir = format!("submissions/{verdict}");
        match &solution.code {
            Code::Cpp(source) => {
                package.add(format!("{dir}/{}.cpp", solution.name), source.clone())
            }
            Code::Shell(script) => {
                package.add_executable(format!("{dir}/{}/build", solution.name), BUILD);
                package.add_executable(format!("{dir}/{}/run", solution.name), script.clone());
            }
        }
    }
    package.add("README.md", readme(contents));
    package
}

fn problem_yaml(contents: &Contents) -> String {
    format!(
        "name: {}\n\
         uuid: {}\n\
         source: arbiter\n\
         # Every input has exactly one right output; tokens are compared, letter case included.\n\
         validation: default\n\
         validator_flags: case_sensitive\n\
         limits:\n  memory: {}\n",
        contents.title, contents.uuid, contents.memory_limit_mib
    )
}

fn statement(contents: &Contents) -> String {
    let statement = &contents.statement;
    format!(
        "\\problemname{{{}}}\n\n{}\n\n\\section*{{Input}}\n\n{}\n\n\\section*{{Output}}\n\n{}\n\n\
         \\section*{{Notes}}\n\n{}\n\nTime limit: {} s per test. Memory limit: {} MiB.\n",
        contents.title,
        statement.legend,
        statement.input,
        statement.output,
        statement.notes,
        contents.time_limit_seconds,
        contents.memory_limit_mib
    )
}

fn add_tests(package: &mut Package, dir: &str, tests: &[Test]) {
    for test in tests {
        package.add(format!("{dir}/{}.in", test.name), test.input.clone());
        package.add(format!("{dir}/{}.ans", test.name), test.answer.clone());
    }
}

fn seeds(contents: &Contents) -> String {
    format!(
        "# The generated tests of data/secret and the commands that print their inputs again\n\
         # (arbiter {game} gen writes the same bytes for the same seed; the answers are\n\
         # arbiter {game}'s).\n{}",
        contents.seeds(),
        game = contents.game
    )
}

/// A `build` script for a program that is a shell script calling `arbiter`: it only checks that
/// `arbiter` is there, so that a missing one fails at build time with a clear message.
const BUILD: &str = "#!/bin/sh\n\
    # The program is the script `run`, which calls arbiter: nothing to build.\n\
    command -v arbiter > /dev/null || { echo 'arbiter is not on the PATH' >&2; exit 1; }\n";

/// The input format validator: the input on standard input, exit status 42 when it is valid and
/// 43 when it is not, as the format asks; `arbiter <game> validate` says why on standard error.
fn validator(game: &str) -> String {
    format!(
        "#!/bin/sh\n\
         # Input format validator: the test's input on standard input; exit 42 valid, 43 invalid.\n\
         # arbiter {game} validate checks the layout and the statement's limits strictly and exits\n\
         # 0 (valid) or 3 (invalid, with FILE:LINE:COL: expected ..., found ... on stderr).\n\
         arbiter {game} validate\n\
         case $? in\n  0) exit 42 ;;\n  3) exit 43 ;;\n  *) exit 1 ;;\nesac\n"
    )
}

fn readme(contents: &Contents) -> String {
    let game = contents.game;
    format!(
        "# {title}: a Kattis problem package built by arbiter\n\n\
         Built by `arbiter {game} package --format kattis`. It follows the Kattis problem package\n\
         format (legacy version), which DOMjudge imports and `verifyproblem` (Kattis problemtools)\n\
         checks.\n\n\
         **The judge host needs `arbiter` on its `PATH`**: the input format validator\n\
         (`input_validators/arbiter/run`) is `arbiter {game} validate`, and solutions\n\
         written as shell scripts call `arbiter` too.\n\n\
         - `data/sample`: the statement's sample. `data/secret`: the official data (`official-*`,\n  \
           but for a file that is the sample too)\n  \
           and generated tests named for the first corner of the rules each is the first to\n  \
           reach; `seeds.txt` gives the command that prints each generated input.\n  \
           Every answer is arbiter's.\n\
         - Output is judged by the default validator, case-sensitively (`problem.yaml`): every\n  \
           input has exactly one right output.\n\
         - `submissions/accepted` must pass every test; each file of\n  \
           `submissions/wrong_answer` breaks one rule, named in its first lines.\n\n\
         ## Coverage\n\n\
         The first test that reaches each corner of the rules and limit of the statement, as\n\
         `arbiter {game} validate --coverage` names them:\n\n```text\n{table}```\n",
        title = contents.title,
        table = contents.coverage_table(),
    )
}
