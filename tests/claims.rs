//! Integration tests of claims with fixture experiments: claims decided with the uncertainty of
//! several process runs, inconclusive claims measured again within the budget, and every way a
//! claim can be written wrong.

mod common;

use common::fixtures::{add_experiment, experiment_source, runs, site_with};
use common::{TestSite, attrs, html, texts};

/// An experiment whose k-th run (counted in `.count`, in its own folder) reports a timing `t`
/// with median `medians[k % len]` and its own interval ± 1 %; a ratio `r` of 1.02 [1.0, 1.04];
/// a count `n` of 200; and `big`, 1.5e308 with a sign that alternates between runs.
fn varying(medians: &[f64]) -> String {
    let list: Vec<String> = medians.iter().map(|m| format!("{m:?}")).collect();
    let list = list.join(", ");
    format!(
        r##"//! A fixture experiment whose timing moves from run to run.
fn main() {{
    use std::io::Write;
    let k: usize = std::fs::read_to_string(".count").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    std::fs::write(".count", (k + 1).to_string()).unwrap();
    let mut log = std::fs::OpenOptions::new().create(true).append(true).open("../../runs.log").unwrap();
    writeln!(log, "{{}}", env!("CARGO_PKG_NAME")).unwrap();
    let medians = [{list}];
    let m: f64 = medians[k % medians.len()];
    let sign = if k % 2 == 0 {{ "" }} else {{ "-" }};
    let json = format!(r#"{{{{"t": {{{{"type": "timing", "median": {{m:?}}, "ci_low": {{:?}}, "ci_high": {{:?}}}}}}, "r": {{{{"type": "ratio", "value": 1.02, "low": 1.0, "high": 1.04}}}}, "n": 200, "big": {{sign}}1.5e308}}}}"#, m * 0.99, m * 1.01);
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), json).unwrap();
}}
"##
    )
}

/// A site with the experiment `vary` (see [`varying`]) and an article `a` whose original
/// declares `claims` (`id: expression` lines) and shows `vary.t`.
fn vary_site(medians: &[f64], claims: &[&str], site_toml: &str) -> TestSite {
    let site = site_with(&[("vary", varying(medians))]);
    site.write(
        "site.toml",
        &format!(
            "{}\n[experiments]\ntimeout_secs = 20\n{site_toml}",
            common::SITE_TOML
        ),
    );
    // Every claim is marked in both languages, as the build requires.
    let marks: String = claims
        .iter()
        .filter_map(|c| c.split_once(':'))
        .map(|(id, _)| format!(" {{{{ claim.{} }}}}", id.trim()))
        .collect();
    let claims: String = claims.iter().map(|c| format!("\n  {c}")).collect();
    site.article(
        "a",
        "vi",
        &format!("title: A\ndate: 2026-01-01\nclaims:{claims}"),
        &format!("Mất {{{{ vary.t }}}}.{marks}\n"),
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        &format!("Takes {{{{ vary.t }}}}.{marks}\n"),
    );
    site
}

/// The build's errors, with paths relative to the site.
fn errors(site: &TestSite) -> String {
    site.build_err()
        .replace(&format!("{}/", site.root().display()), "")
}

fn vary_runs(site: &TestSite) -> usize {
    runs(site).iter().filter(|r| *r == "vary").count()
}

#[test]
fn claims_that_hold_need_three_runs_and_no_more() {
    let site = vary_site(
        &[100.0, 101.0, 102.0],
        &[
            "quick: vary.t < 200",
            "count: vary.n == 200",
            "ratio: vary.r > 0.9",
        ],
        "",
    );
    site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(vary_runs(&site), 3);
}

#[test]
fn an_inconclusive_claim_is_measured_again_until_it_holds() {
    // Runs 100, 130, 115: 115 ± 37.3 (t(2) = 4.303 × 15/√3) reaches past 140. A fourth run at
    // 115: ± 19.5 (t(3) = 3.182 × 12.25/√4), wholly below 140.
    let site = vary_site(&[100.0, 130.0, 115.0, 115.0], &["fast: vary.t < 140"], "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(vary_runs(&site), 4);
    assert_eq!(texts(&html(&b, "a/index.html"), "data"), ["115 ns"]);
    let record: serde_json::Value =
        serde_json::from_str(&site.read(".measured/results/vary.json")).unwrap();
    assert_eq!(record["runs"].as_array().unwrap().len(), 4);
    assert_eq!(
        record["results"]["t"]["run_medians"],
        serde_json::json!([100.0, 130.0, 115.0, 115.0])
    );
    // The next build reuses the four runs.
    site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(vary_runs(&site), 4);
}

#[test]
fn a_claim_inconclusive_after_the_budget_fails_the_build_and_says_what_to_do() {
    let site = vary_site(
        &[100.0, 200.0],
        &["fast: vary.t < 150"],
        "[claims]\nextra_runs = 2\n",
    );
    let e = errors(&site);
    // Runs 100, 200, 100, 200, 100: median 100; mean 140, s = 54.77, s/√5 × t(4) = 2.7764
    // → ± 68.0.
    assert_eq!(
        e,
        "content/a/index.vi.md:5:9: error: claim `fast` is inconclusive after 5 runs: vary.t < 150
  vary.t = 100 ns [82.35 ns, 211.4 ns] over 5 runs
 5 |   fast: vary.t < 150
   |         ^
  = help: each experiment had its 3 runs and 2 extra. Measure more: raise `[claims] extra_runs` or `extra_secs` in site.toml, or run `measured build --rerun vary` on a quiet machine; or soften the sentence and its claim"
    );
    assert_eq!(vary_runs(&site), 5);
    // The budget is spent: the next build decides on the stored runs without running.
    assert_eq!(errors(&site), e);
    assert_eq!(vary_runs(&site), 5);
}

#[test]
fn the_time_budget_stops_extra_runs() {
    let site = vary_site(
        &[100.0, 200.0],
        &["fast: vary.t < 150"],
        "[claims]\nextra_secs = 0\n",
    );
    let e = errors(&site);
    assert!(e.contains("inconclusive after 3 runs"), "{e}");
    assert!(
        e.contains("= help: this build's 0 s for extra runs were spent."),
        "{e}"
    );
    assert_eq!(vary_runs(&site), 3);
}

#[test]
fn run_to_run_variation_widens_the_published_interval() {
    // Each run says ± 1 %; between runs the median moves 2×.
    let site = vary_site(&[100.0, 200.0, 100.0], &[], "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let json: serde_json::Value =
        serde_json::from_slice(b.output.get("a/results.json").unwrap()).unwrap();
    let t = &json["experiments"]["vary"]["results"]["t"];
    assert_eq!(t["median"], 100.0);
    assert_eq!(t["runs"], 3);
    // The geometric t-interval of 100, 200, 100 (logarithms' mean 4.8363, s = 0.4002,
    // s/√3 × 4.3027 = 0.9942) is [46.62, 340.48]: far wider than any run's ± 1 %.
    let (low, high) = (
        t["ci_low"].as_f64().unwrap(),
        t["ci_high"].as_f64().unwrap(),
    );
    assert!((high - 340.48).abs() < 0.1, "{t}");
    assert!((low - 46.62).abs() < 0.1, "{t}");
}

#[test]
fn equivalence_holds_in_its_band_and_fails_out_of_it() {
    let site = vary_site(
        &[100.0],
        &[
            "same: vary.r ~= 1 ± 5%",
            "near: vary.t ~= 100 ± 2",
            "far: vary.r ~= 1.5 ± 10%",
        ],
        "",
    );
    let e = errors(&site);
    assert_eq!(
        e,
        "content/a/index.vi.md:7:8: error: claim `far` fails: vary.r ~= 1.5 ± 10%
  vary.r = 1.02× [1×, 1.04×] over 3 runs
  LHS / RHS is within [0.6667, 0.6933], the band is [0.9, 1.1]
 7 |   far: vary.r ~= 1.5 ± 10%
   |        ^
  = help: the measurements contradict the sentence: rewrite it and its claim to say what was measured, e.g. `vary.r ~= 1.5 ± 40%`, the tolerance the data supports"
    );
}

#[test]
fn non_finite_numbers_are_refused() {
    let site = vary_site(
        &[100.0],
        &[
            "lit: vary.t < inf",
            "big: vary.r < 1e400",
            "value: vary.big < 1",
        ],
        "",
    );
    let e = errors(&site);
    for expected in [
        "content/a/index.vi.md:5:17: error: claim `lit`: `inf` is not a finite number",
        "content/a/index.vi.md:6:17: error: claim `big`: `1e400` is too large to be a finite number",
        "help: claims compare finite numbers: write the bound as a decimal number",
    ] {
        assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
    }
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  value: vary.big < 1",
        "x\n",
    );
    let e = errors(&site);
    assert!(
        e.starts_with("content/a/index.vi.md:5:10: error: claim `value`: `vary.big` is not finite over its 3 runs"),
        "{e}"
    );
    add_experiment(&site, "huge", &experiment_source("huge", r#"{"v": 1e400}"#));
    site.article("a", "vi", "title: A\ndate: 2026-01-01", "{{ huge.v }}\n");
    let e = errors(&site);
    assert!(
        e.contains(
            "experiment `huge` failed: wrote invalid JSON to MEASURED_RESULTS: number out of range"
        ),
        "{e}"
    );
    assert!(
        e.contains("(a number too large to be finite: results hold finite numbers only)"),
        "{e}"
    );
}

#[test]
fn exact_equality_on_a_measured_value_is_an_error_that_points_to_equivalence() {
    let site = vary_site(&[100.0], &["eq: vary.t == 100", "count: vary.n == 200"], "");
    let e = errors(&site);
    assert_eq!(
        e,
        "content/a/index.vi.md:5:7: error: claim `eq`: `==` compares exact values, and `vary.t` is measured: 100 ns [99 ns, 101 ns] over 3 runs
 5 |   eq: vary.t == 100
   |       ^
  = help: to say that two measured values are about equal, write `~=` with the tolerance the data supports, e.g. `vary.t ~= 100 ± 5%`"
    );
}

#[test]
fn malformed_claims_are_all_reported_where_they_are_written() {
    let site = vary_site(
        &[100.0],
        &[
            "Fast: vary.t < 200",
            "slow: vary.t => 2",
            "slow: vary.t < 300",
            "typo: vary.tt < 2",
            "approx: vary.t ~= 100",
        ],
        "",
    );
    let e = errors(&site);
    for expected in [
        "content/a/index.vi.md:5:3: error: claim id `Fast` is not lowercase letters, digits and `-`, starting with a letter or digit",
        "content/a/index.vi.md:6:16: error: claim `slow`: unknown comparison `=>`",
        "help: did you mean `>=`?",
        "content/a/index.vi.md:7:3: error: claim id `slow` is used twice (first on line 6)",
        "content/a/index.vi.md:9:18: error: claim `approx`: `~=` needs a tolerance",
    ] {
        assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
    }
    // Once the claims parse, paths are checked against the results.
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  typo: vary.tt < 2",
        "x\n",
    );
    let e = errors(&site);
    assert!(
        e.contains("content/a/index.vi.md:5:9: error: claim `typo`: no `tt` in the results (experiment `vary`, reference `vary.tt`)"),
        "{e}"
    );
    assert!(e.contains("help: did you mean `t`?"), "{e}");
}

#[test]
fn claims_are_declared_once_per_article_in_the_map_form() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01\nclaims:\n  fast: vary.t < 200",
        "Takes {{ vary.t }}.\n",
    );
    let e = errors(&site);
    assert!(
        e.contains(
            "content/a/index.en.md:4:1: error: the claims of article `a` are declared in two files:"
        ),
        "{e}"
    );
    assert!(
        e.contains("index.vi.md and ") && e.ends_with("they apply to every language"),
        "{e}"
    );
    site.article("a", "en", "title: A\ndate: 2026-01-01", "x\n");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  - vary.t < 200",
        "x\n",
    );
    let e = errors(&site);
    assert!(
        e.ends_with(
            "content/a/index.vi.md:4:1: error: `claims:` is a list; claims are now a map from a short id to the claim
  = help: give each claim an id (lowercase letters, digits and `-`), e.g.
      claims:
        my-claim: vary.t < 200"
        ),
        "{e}"
    );
}

/// The titles of the claim marks on the built page `path`.
fn marks(b: &measured::Built, path: &str) -> Vec<String> {
    let doc = html(b, path);
    let sel = scraper::Selector::parse("span.claim").unwrap();
    doc.select(&sel)
        .map(|m| {
            assert_eq!(m.text().collect::<String>(), "✓");
            assert_eq!(m.value().attr("tabindex"), Some("0"));
            // Numbers keep their units with no-break spaces; compared here as plain spaces.
            m.value()
                .attr("title")
                .unwrap_or_default()
                .replace(['\u{a0}', '\u{202f}'], " ")
        })
        .collect()
}

#[test]
fn a_marked_sentence_shows_its_claim_in_words_with_values_in_each_language() {
    let site = vary_site(
        &[100.0, 101.0, 102.0],
        &[
            "fast: vary.t < 200",
            "count: vary.n == 200",
            "like: vary.r ~= 1 ± 10%",
        ],
        "",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let vi = marks(&b, "a/index.html");
    let en = marks(&b, "en/a/index.html");
    assert_eq!((vi.len(), en.len()), (3, 3));
    // The timing reads as a duration with its combined interval and runs, the bound in the
    // same unit, the count exactly; each language in its own words and number marks.
    assert_eq!(
        en[0],
        "Checked at build: vary.t (101 ns, 98.5 ns–104 ns over 3 runs) is below 200 ns."
    );
    assert_eq!(
        vi[0],
        "Kiểm lúc dựng trang: vary.t (101 ns, 98,5 ns–104 ns qua 3 lần chạy) nhỏ hơn 200 ns."
    );
    assert_eq!(en[1], "Checked at build: vary.n (200) equals 200.");
    assert_eq!(
        en[2],
        "Checked at build: vary.r (1.02×, 1×–1.04× over 3 runs) is within ±10% of 1×."
    );
    assert_eq!(
        vi[2],
        "Kiểm lúc dựng trang: vary.r (1,02×, 1×–1,04× qua 3 lần chạy) chênh không quá ±10% so với 1×."
    );
    // Where and when they were measured is said once per page, in the body's --w1, which
    // each mark and value names.
    for (path, measured) in [
        ("a/index.html", "Đo ngày "),
        ("en/a/index.html", "Measured on "),
    ] {
        let doc = html(&b, path);
        // The first experiment's slot is the stylesheet's default: no attribute to repeat.
        assert_eq!(attrs(&doc, "span.claim", "data-w"), Vec::<String>::new());
        assert_eq!(attrs(&doc, "data", "data-w"), Vec::<String>::new());
        let css = std::fs::read_to_string("static/style.css").unwrap();
        assert!(css.contains("data, .claim { --w: var(--w1); }"), "{css}");
        let style = attrs(&doc, "div.content", "style");
        assert!(
            style[0].starts_with(&format!("--w1:'{measured}")),
            "{style:?}"
        );
        assert!(
            style[0].contains(" by the vary experiment") || style[0].contains("thí nghiệm vary"),
            "{style:?}"
        );
    }
}

#[test]
fn a_claim_marked_in_one_language_only_fails_naming_the_other_file() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "Takes {{ vary.t }}.\n",
    );
    let e = errors(&site);
    assert_eq!(
        e,
        "content/a/index.en.md: error: claim `fast` is marked in content/a/index.vi.md (line 7) but not in this translation
  = help: write {{ claim.fast }} after the sentence that says the same, so readers of every language see it checked"
    );
}

#[test]
fn a_marker_naming_no_claim_is_an_error_where_it_is_written() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "Takes {{ vary.t }}.\n\nQuick. {{ claim.fsat }} {{ claim.fast }}\n",
    );
    let e = errors(&site);
    assert!(
        e.starts_with("content/a/index.en.md:7:8: error: `claim.fsat` names no claim of this article (declared in "),
        "{e}"
    );
    assert!(e.ends_with("= help: did you mean `claim.fast`?"), "{e}");
}

#[test]
fn a_claim_marked_nowhere_is_an_error_at_its_declaration() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  fast: vary.t < 200\n  slow: vary.t > 1",
        "Mất {{ vary.t }}. {{ claim.fast }}\n",
    );
    let e = errors(&site);
    assert!(
        e.starts_with("content/a/index.vi.md:6:3: error: claim `slow` is not marked in any sentence of the article"),
        "{e}"
    );
}

#[test]
fn values_one_language_injects_and_another_does_not_are_warnings() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "Takes {{ vary.t }}, of {{ vary.n }} and {{ vary.r | fixed(2) }}. {{ claim.fast }}\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let w: Vec<(String, String)> = b
        .warnings
        .iter()
        .map(|d| {
            let path = d
                .place
                .path
                .strip_prefix(site.root())
                .unwrap_or(&d.place.path);
            (
                path.display().to_string(),
                d.message
                    .replace(&format!("{}/", site.root().display()), ""),
            )
        })
        .collect();
    assert_eq!(
        w,
        [(
            "content/a/index.vi.md".to_string(),
            "injects 2 fewer value(s) than content/a/index.en.md: vary.n, vary.r".to_string()
        )]
    );
}

#[test]
fn a_failing_claim_and_a_missing_marker_are_reported_in_one_build() {
    let site = vary_site(&[100.0], &["fast: vary.t < 200"], "");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  fast: vary.t < 200\n  slow: vary.t > 1000",
        "Mất {{ vary.t }}. {{ claim.fast }}\n",
    );
    let e = errors(&site);
    assert!(
        e.contains("content/a/index.vi.md:6:9: error: claim `slow` fails: vary.t > 1000"),
        "{e}"
    );
    assert!(
        e.contains("content/a/index.vi.md:6:3: error: claim `slow` is not marked"),
        "{e}"
    );
}
