//! A Polygon package: `problem.xml` naming the statement, one testset whose tests are the files
//! `tests/01`, `tests/02`, ... with answers `tests/01.a`, ..., the checker, the validator and the
//! solutions tagged `main` and `wrong-answer`.
//!
//! The checker is a token comparison in plain C++ (no testlib needed), with testlib's exit
//! statuses: every input has exactly one right output. The validator is a shell script running
//! `arbiter <game> validate` (exit 0 valid, 3 invalid): Polygon itself builds validators from
//! testlib sources only, so it serves tools that run a package locally with `arbiter` installed.

use super::Package;
use super::contents::{Code, Contents, Origin, Test, Verdict};

/// The package of `contents` in Polygon's layout.
pub fn layout(contents: &Contents) -> Package {
    let mut package = Package::default();
    let tests: Vec<&Test> = contents.samples.iter().chain(&contents.secret).collect();
    for (i, test) in tests.iter().enumerate() {
        package.add(format!("tests/{:02}", i + 1), test.input.clone());
        package.add(format!("tests/{:02}.a", i + 1), test.answer.clone());
    }
    let statement = &contents.statement;
    let dir = "statement-sections/english";
    package.add(format!("{dir}/name.tex"), format!("{}\n", contents.title));
    package.add(format!("{dir}/legend.tex"), format!("{}\n", statement.legend));
    package.add(format!("{dir}/input.tex"), format!("{}\n", statement.input));
    package.add(format!("{dir}/output.tex"), format!("{}\n", statement.output));
    package.add(format!("{dir}/notes.tex"), format!("{}\n", statement.notes));
    package.add("statements/english/problem.tex", statement_tex(contents));
    package.add("files/check.cpp", CHECKER);
    package.add_executable("files/validator.sh", validator(contents.game));
    let mut solutions = Vec::new();
    for solution in &contents.solutions {
        let (path, kind) = match &solution.code {
            Code::Cpp(source) => {
                let path = format!("solutions/{}.cpp", solution.name);
                package.add(path.clone(), source.clone());
                (path, "cpp.g++17")
            }
            Code::Shell(script) => {
                let path = format!("solutions/{}.sh", solution.name);
                package.add_executable(path.clone(), script.clone());
                (path, "sh")
            }
        };
        let tag = match (solution.verdict, solutions.is_empty()) {
            (Verdict::Accepted, true) => "main",
            (Verdict::Accepted, false) => "accepted",
            (Verdict::WrongAnswer, _) => "wrong-answer",
        };
        solutions.push((path, kind, tag));
    }
    package.add("documents/tests.txt", test_list(contents, &tests));
    package.add("problem.xml", problem_xml(contents, &tests, &solutions));
    package.add("documents/README.md", readme(contents));
    package
}

fn statement_tex(contents: &Contents) -> String {
    let statement = &contents.statement;
    format!(
        "\\begin{{problem}}{{{}}}{{standard input}}{{standard output}}{{{} seconds}}{{{} megabytes}}\n\n\
         {}\n\n\\InputFile\n\n{}\n\n\\OutputFile\n\n{}\n\n\\Note\n\n{}\n\n\\end{{problem}}\n",
        contents.title,
        contents.time_limit_seconds,
        contents.memory_limit_mib,
        statement.legend,
        statement.input,
        statement.output,
        statement.notes
    )
}

/// `problem.xml`: names, statement, the testset, the files and the assets.
fn problem_xml(contents: &Contents, tests: &[&Test], solutions: &[(String, &str, &str)]) -> String {
    let mut xml = String::new();
    xml.push_str("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n");
    xml.push_str(&format!("<problem revision=\"1\" short-name=\"{}\">\n", contents.short_name));
    xml.push_str(&format!(
        "    <names>\n        <name language=\"english\" value=\"{}\"/>\n    </names>\n",
        contents.title
    ));
    xml.push_str(
        "    <statements>\n        <statement charset=\"UTF-8\" language=\"english\" \
         mathjax=\"true\" path=\"statements/english/problem.tex\" type=\"application/x-tex\"/>\n    \
         </statements>\n",
    );
    xml.push_str("    <judging input-file=\"\" output-file=\"\">\n");
    xml.push_str("        <testset name=\"tests\">\n");
    xml.push_str(&format!(
        "            <time-limit>{}</time-limit>\n",
        contents.time_limit_seconds * 1000
    ));
    xml.push_str(&format!(
        "            <memory-limit>{}</memory-limit>\n",
        u64::from(contents.memory_limit_mib) << 20
    ));
    xml.push_str(&format!("            <test-count>{}</test-count>\n", tests.len()));
    xml.push_str("            <input-path-pattern>tests/%02d</input-path-pattern>\n");
    xml.push_str("            <answer-path-pattern>tests/%02d.a</answer-path-pattern>\n");
    xml.push_str("            <tests>\n");
    for test in tests {
        let sample = if test.origin == Origin::Sample { " sample=\"true\"" } else { "" };
        xml.push_str(&format!("                <test method=\"manual\"{sample}/>\n"));
    }
    xml.push_str("            </tests>\n        </testset>\n    </judging>\n");
    xml.push_str(
        "    <files>\n        <executables>\n            <executable>\n                \
         <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>\n            </executable>\n            \
         <executable>\n                <source path=\"files/validator.sh\" type=\"sh\"/>\n            \
         </executable>\n        </executables>\n    </files>\n",
    );
    xml.push_str("    <assets>\n");
    xml.push_str(
        "        <checker type=\"testlib\">\n            <source path=\"files/check.cpp\" \
         type=\"cpp.g++17\"/>\n        </checker>\n",
    );
    xml.push_str(
        "        <validators>\n            <validator>\n                <source \
         path=\"files/validator.sh\" type=\"sh\"/>\n            </validator>\n        \
         </validators>\n",
    );
    xml.push_str("        <solutions>\n");
    for (path, kind, tag) in solutions {
        xml.push_str(&format!(
            "            <solution tag=\"{tag}\">\n                <source path=\"{path}\" \
             type=\"{kind}\"/>\n            </solution>\n"
        ));
    }
    xml.push_str("        </solutions>\n    </assets>\n</problem>\n");
    xml
}

/// Each test's number, name and origin.
fn test_list(contents: &Contents, tests: &[&Test]) -> String {
    let mut list = format!(
        "# The tests of tests/ by number: name, and where each comes from (the generated ones:\n\
         # the command that prints the input again; every answer is arbiter {}'s).\n",
        contents.game
    );
    for (i, test) in tests.iter().enumerate() {
        let origin = match &test.origin {
            Origin::Sample => "the statement's sample".to_owned(),
            Origin::Official(name) => format!("the official data, file {name}"),
            Origin::Handwritten => "written by hand".to_owned(),
            Origin::Generated(args) => format!("arbiter {} gen {args}", contents.game),
        };
        list.push_str(&format!("{:02} {}: {origin}\n", i + 1, test.name));
    }
    list
}

fn validator(game: &str) -> String {
    format!(
        "#!/bin/sh\n\
         # Validator: the test's input on standard input; exit 0 valid, 3 invalid (testlib's), with\n\
         # FILE:LINE:COL: expected ..., found ... on stderr. Needs arbiter on the PATH.\n\
         exec arbiter {game} validate\n"
    )
}

fn readme(contents: &Contents) -> String {
    format!(
        "# {title}: a Polygon package built by arbiter\n\n\
         Built by `arbiter {game} package --format polygon`. `problem.xml` names every file: the\n\
         statement (`statements/english/problem.tex`, its sections in `statement-sections/`), the\n\
         tests `tests/NN` with answers `tests/NN.a` (the sample first; `documents/tests.txt` says\n\
         where each comes from), the checker `files/check.cpp` (a token comparison, letter case\n\
         included, with testlib's exit statuses; no testlib needed), the validator\n\
         `files/validator.sh` and the solutions, tagged `main` and `wrong-answer`.\n\n\
         The validator calls `arbiter {game} validate`, so it needs `arbiter` on the `PATH`; Polygon\n\
         itself builds validators from testlib sources only, and solutions from its own languages\n\
         (a solution that is a shell script calling `arbiter` cannot run there either).\n\n\
         ## Coverage\n\n```text\n{table}```\n",
        title = contents.title,
        game = contents.game,
        table = contents.coverage_table()
    )
}

/// The checker: `check INPUT OUTPUT ANSWER`, comparing OUTPUT with ANSWER token by token (runs
/// of white space are one separator), letter case included. Exit status 0 when they are equal,
/// 1 (wrong answer) otherwise, 3 when a file cannot be opened; the reason on standard error.
const CHECKER: &str = r#"// Checker: check INPUT OUTPUT ANSWER. Every input of this problem has exactly one right
// output, so the output is compared with the answer token by token (runs of white space are one
// separator), letter case included. Exit status as testlib's: 0 ok, 1 wrong answer, 3 failure.
#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "FAIL usage: check INPUT OUTPUT ANSWER\n");
        return 3;
    }
    std::ifstream output(argv[2]), answer(argv[3]);
    if (!answer) {
        std::fprintf(stderr, "FAIL cannot open the answer %s\n", argv[3]);
        return 3;
    }
    std::string got, expected;
    for (long token = 1;; token++) {
        bool more_expected = static_cast<bool>(answer >> expected);
        bool more_got = static_cast<bool>(output >> got);
        if (!more_expected && !more_got) {
            std::fprintf(stderr, "ok %ld tokens\n", token - 1);
            return 0;
        }
        if (!more_got) {
            std::fprintf(stderr, "wrong answer token %ld: expected `%s`, found the end\n", token,
                         expected.c_str());
            return 1;
        }
        if (!more_expected) {
            std::fprintf(stderr, "wrong answer token %ld: expected the end, found `%s`\n", token,
                         got.c_str());
            return 1;
        }
        if (got != expected) {
            std::fprintf(stderr, "wrong answer token %ld: expected `%s`, found `%s`\n", token,
                         expected.c_str(), got.c_str());
            return 1;
        }
    }
}
"#;
