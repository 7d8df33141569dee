//! Issue 35, messages that named no place or gave no advice: each now says where, what is
//! wrong and what to do, and following its advice works.

use super::bounds::{daemon_experiment, marker, site_using};
use super::common::{self, TestSite};
use super::{errors, first_error, frozen_options};

#[test]
fn following_the_hint_for_tags_that_share_a_url_makes_the_build_pass() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02\ntags: [mạng]", "x\n");
    site.article("b", "vi", "title: B\ndate: 2026-01-01\ntags: [mang]", "x\n");
    let (_, _, message, hint) = first_error(&site);
    assert!(
        message.contains("would share the URL /tags/mang/"),
        "{message}"
    );
    let table = hint
        .split("site.toml: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no table in: {hint}"));
    assert_eq!(table, "[tags] \"mạng\" = \"mang-2\"");
    let line = table.strip_prefix("[tags] ").unwrap();
    site.write(
        "site.toml",
        &format!("{}[tags]\n{line}\n", common::SITE_TOML),
    );
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert!(built.output.get("tags/mang-2/index.html").is_some());
    assert!(built.output.get("tags/mang/index.html").is_some());
}

#[test]
fn rerun_of_an_experiment_that_is_not_one_is_an_error_with_the_closest_name() {
    let site = site_using("daemon", &daemon_experiment(&marker(62)), 20);
    let options = measured::BuildOptions {
        experiments: measured::experiments::ExperimentOptions {
            rerun: measured::experiments::Rerun::Only(["deamon".to_string()].into()),
            ..Default::default()
        },
        ..site.options()
    };
    let e = measured::build_in_memory(&options).unwrap_err().to_string();
    assert!(
        e.contains("experiments: error: --rerun deamon: `deamon` is not an experiment of this site, so nothing would run\n  = help: did you mean `daemon`?"),
        "{e}"
    );
    let out = site.cli(&["build", "--rerun", "nosuch"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--rerun nosuch: `nosuch` is not an experiment of this site"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_article_that_is_not_utf8_is_an_error_at_its_first_bad_byte() {
    let site = TestSite::new();
    site.write("content/a/index.vi.md", "");
    let mut bytes =
        b"---\ntitle: A\ndate: 2026-01-02\n---\nM\xe1\xbb\x9f \xc4\x91\xe1\xba\xa7u.\n\nabc"
            .to_vec();
    bytes.extend(b"\xff d\n");
    std::fs::write(site.path("content/a/index.vi.md"), bytes).unwrap();
    let (file, line, message, hint) = first_error(&site);
    assert_eq!(
        (file.as_str(), line, message.as_str()),
        (
            "content/a/index.vi.md",
            Some(7),
            "the article is not UTF-8 text: the byte 0xFF here is not part of a UTF-8 character"
        )
    );
    assert!(hint.starts_with("save the file as UTF-8"), "{hint}");
    assert!(site.build_err().contains(" 7 | abc\u{fffd} d\n   |    ^"));
}

#[test]
fn front_matter_values_of_the_wrong_shape_say_what_is_wrong_at_their_line() {
    let site = TestSite::new();
    let laughs = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]";
    site.article(
        "a",
        "vi",
        &format!("title: A\ndate: 2026-01-02\n{laughs}"),
        "x\n",
    );
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-02\npart: 99999999999999999999",
        "x\n",
    );
    site.article(
        "c",
        "vi",
        "title: C\ndate: 2026-01-02\ntags: [[a,b],{x:1}]",
        "x\n",
    );
    let got: Vec<(String, Option<usize>, String)> = errors(&site);
    assert_eq!(
        got,
        [
            (
                "content/a/index.vi.md".to_string(),
                Some(5),
                "front matter: YAML aliases (`*name`) repeat what they name too many times"
                    .to_string()
            ),
            (
                "content/b/index.vi.md".to_string(),
                Some(4),
                "front matter: `part` is a whole number from 0 to 4294967295, not 99999999999999999999".to_string()
            ),
            (
                "content/c/index.vi.md".to_string(),
                Some(4),
                "front matter: `tags` is a list of texts, and its entry 1 is a list".to_string()
            ),
        ]
    );
    let e = site.build_err();
    assert!(
        e.contains("help: write the values out: front matter needs no anchors (`&name`) or aliases (`*name`)"),
        "{e}"
    );
    assert!(
        e.contains("help: write each entry as a text, e.g. tags: [python]"),
        "{e}"
    );
}

#[test]
fn a_value_cut_by_markup_and_a_path_with_two_dots_are_errors_at_their_place() {
    let site = common::fixtures::frozen_site(serde_json::json!({"x": {"v": 1}}));
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        "Một {{ claim.<script> }} câu.\n\nGiá trị {{ exp.x..v }}.\n",
    );
    let Err(diags) = measured::build_in_memory(&frozen_options(&site)) else {
        panic!("the build should fail")
    };
    let got: Vec<(Option<usize>, Option<usize>, String, String)> = diags
        .0
        .into_iter()
        .map(|d| {
            (
                d.place.line,
                d.place.col,
                d.message,
                d.hint.unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                Some(5),
                Some(5),
                "`{{ claim.<script> }}` is not a value: `<` cannot be part of one, and Markdown reads it as markup".to_string(),
                "a value is {{ experiment.path }} and a claim's mark {{ claim.id }}, named with letters, digits, `-`, `_` and `.`; to show braces as text, put them in a code span".to_string()
            ),
            (
                Some(7),
                Some(9),
                "`exp.x..v` has an empty name: two dots together, or a dot at an end".to_string(),
                "write one dot between names: `exp.x.v`".to_string()
            ),
        ]
    );
}

#[test]
fn a_slug_or_tag_too_long_for_a_folder_is_an_error_at_its_line() {
    let site = TestSite::new();
    let slug = "a".repeat(300);
    site.article(
        "a",
        "vi",
        &format!("title: A\ndate: 2026-01-02\nslug: {slug}"),
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/a/index.vi.md".to_string(),
            Some(4),
            format!(
                "front matter: `slug: {slug}` cannot be a URL segment: it has 300 characters, and a URL segment is written as a folder's name, which may have at most 255"
            )
        )]
    );
    let site = TestSite::new();
    let tag = "b".repeat(300);
    site.article(
        "b",
        "vi",
        &format!("title: B\ndate: 2026-01-02\ntags: [{tag}]"),
        "x\n",
    );
    assert_eq!(
        errors(&site),
        [(
            "content/b/index.vi.md".to_string(),
            Some(4),
            format!(
                "the tag `{tag}` makes a URL segment of 300 characters, longer than a folder's name may be (255)"
            )
        )]
    );
}

#[test]
fn an_id_written_twice_is_an_error_at_the_line_of_the_article_that_writes_it() {
    let site = TestSite::new();
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        "Một <span id=\"x\">a</span>.\n\nHai <span id=\"x\">b</span>.\n",
    );
    let (file, line, message, _) = first_error(&site);
    assert_eq!(
        (file.as_str(), line, message.as_str()),
        (
            "content/a/index.vi.md",
            Some(7),
            "the page /a/index.html has 2 elements with id `x`"
        )
    );
}
