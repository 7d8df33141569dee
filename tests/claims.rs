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

/// The options of a `--strict` build: any claim that does not hold is an error.
fn strict(site: &TestSite) -> measured::BuildOptions {
    let mut opts = site.options();
    opts.experiments.strict = true;
    opts
}

/// The errors of a `--strict` build, with paths relative to the site.
fn errors(site: &TestSite) -> String {
    match measured::build_in_memory(&strict(site)) {
        Ok(_) => panic!("the strict build should have failed"),
        Err(d) => d
            .to_string()
            .replace(&format!("{}/", site.root().display()), ""),
    }
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
    // The next build does not repeat the stored runs' verdict: it measures again (3 runs and
    // 2 extra), and decides on the new runs.
    let again = errors(&site);
    assert!(
        again.contains("claim `fast` is inconclusive after 5 runs"),
        "{again}"
    );
    assert_eq!(vary_runs(&site), 10);
    let record: serde_json::Value =
        serde_json::from_str(&site.read(".measured/results/vary.json")).unwrap();
    assert_eq!(
        record["runs"].as_array().unwrap().len(),
        5,
        "the new runs only"
    );
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
            assert_eq!(m.value().attr("data-verdict"), Some("holds"));
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

/// Each claim mark of the built page `path`: (data-verdict, glyph, aria-label, title).
fn verdict_marks(b: &measured::Built, path: &str) -> Vec<[String; 4]> {
    let doc = html(b, path);
    let sel = scraper::Selector::parse("span.claim").unwrap();
    doc.select(&sel)
        .map(|m| {
            let attr = |a: &str| m.value().attr(a).unwrap_or_default().to_string();
            [
                attr("data-verdict"),
                m.text().collect(),
                attr("aria-label"),
                attr("title").replace(['\u{a0}', '\u{202f}'], " "),
            ]
        })
        .collect()
}

/// A site whose claims hold (`fast`), fail (`far`) and stay inconclusive (`split`: runs 100
/// and 200 with no extra runs).
fn three_verdicts() -> TestSite {
    vary_site(
        &[100.0, 200.0],
        &[
            "fast: vary.t < 1000",
            "far: vary.r ~= 1.5 ± 10%",
            "split: vary.t < 150",
        ],
        "[claims]\nextra_runs = 0\n",
    )
}

#[test]
fn claims_that_do_not_hold_are_published_with_their_verdict_in_both_languages() {
    let site = three_verdicts();
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let en = verdict_marks(&b, "en/a/index.html");
    let vi = verdict_marks(&b, "a/index.html");
    let head = |m: &Vec<[String; 4]>| -> Vec<[String; 3]> {
        m.iter()
            .map(|[v, g, l, _]| [v.clone(), g.clone(), l.clone()])
            .collect()
    };
    let s = |a: &str, b: &str, c: &str| [a.to_string(), b.to_string(), c.to_string()];
    assert_eq!(
        head(&en),
        [
            s("holds", "✓", ""),
            s("fails", "✗", "Claim contradicted by the measurements"),
            s("inconclusive", "?", "Claim not confirmed"),
        ]
    );
    assert_eq!(
        head(&vi),
        [
            s("holds", "✓", ""),
            s("fails", "✗", "Nhận định bị số đo bác bỏ"),
            s("inconclusive", "?", "Nhận định chưa được xác nhận"),
        ]
    );
    // The tooltip says, in the page's language, what was measured.
    assert_eq!(
        en[1][3],
        "Contradicted on the machine that built this page: the claim is that vary.r (1.02×, 1×–1.04× over 3 runs) is within ±10% of 1.5×, and the measurements say otherwise."
    );
    assert!(
        en[2][3].starts_with(
            "Not confirmed on the machine that built this page: the claim is that vary.t (100 ns, "
        ),
        "{}",
        en[2][3]
    );
    assert!(
        en[2][3].contains(" over 3 runs) is below 150 ns"),
        "{}",
        en[2][3]
    );
    assert!(
        vi[1][3].starts_with("Bị bác bỏ trên máy đã dựng trang này: nhận định là vary.r (1,02×, 1×–1,04× qua 3 lần chạy)"),
        "{}",
        vi[1][3]
    );
    assert!(vi[2][3].starts_with("Chưa xác nhận được trên máy đã dựng trang này:"));
    // Each page says once that some claims did not hold, and what the marks mean.
    let en_page = html(&b, "en/a/index.html");
    let vi_page = html(&b, "a/index.html");
    assert_eq!(
        texts(&en_page, "p.claims-notice"),
        [
            "Some claims of this article did not hold on the machine that built this page: they are marked ? (not confirmed) or ✗ (contradicted) instead of ✓, and each mark's tooltip says what was measured."
        ]
    );
    assert_eq!(
        texts(&vi_page, "p.claims-notice"),
        [
            "Một số nhận định của bài này không đứng vững trên máy đã dựng trang: chúng được đánh dấu ? (chưa xác nhận) hoặc ✗ (bị số đo bác bỏ) thay cho ✓, và chú thích của mỗi dấu cho biết số đo thực tế."
        ]
    );
    assert_eq!(texts(&en_page, "p.claims-legend").len(), 1);
    assert!(texts(&vi_page, "p.claims-legend")[0].starts_with("Dấu ✓ sau một câu"));
    // The publisher is told, claim by claim, what to do.
    let warned: Vec<&str> = b.warnings.iter().map(|d| d.message.as_str()).collect();
    assert!(
        warned.iter().any(|w| w.starts_with("claim `far` is contradicted by this machine's measurements; the page is published with the claim marked as contradicted")),
        "{warned:?}"
    );
    assert!(
        warned.iter().any(|w| w.starts_with("claim `split` could not be confirmed on this machine (its measurements' intervals overlap the bound after 3 runs)")),
        "{warned:?}"
    );
    let hint = b.warnings.iter().find_map(|d| d.hint.clone()).unwrap();
    assert!(hint.contains("`measured build --rerun vary`"), "{hint}");
    assert!(hint.contains("`measured claims`"), "{hint}");
}

#[test]
fn an_article_whose_claims_all_hold_has_a_legend_and_no_notice() {
    let site = vary_site(&[100.0, 101.0, 102.0], &["fast: vary.t < 200"], "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    for path in ["a/index.html", "en/a/index.html"] {
        let page = html(&b, path);
        assert!(texts(&page, "p.claims-notice").is_empty());
        assert_eq!(texts(&page, "p.claims-legend").len(), 1);
    }
}

#[test]
fn the_publishers_build_exits_zero_and_strict_names_the_claim_and_writes_nothing() {
    let site = three_verdicts();
    let out = site.cli(&["build", "--strict"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("content/a/index.vi.md:6:8: error: claim `far` fails: vary.r ~= 1.5 ± 10%"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "content/a/index.vi.md:7:10: error: claim `split` is inconclusive after 3 runs"
        ),
        "{stderr}"
    );
    assert!(!site.path("public").exists(), "nothing is written");
    let out = site.cli(&["check", "--strict"]);
    assert!(!out.status.success());
    let out = site.cli(&["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let page = site.read("public/a/index.html");
    assert!(page.contains("data-verdict=\"fails\""), "{page}");
    assert!(
        site.read("public/en/a/index.html")
            .contains("data-verdict=\"fails\"")
    );
    assert!(
        stderr.contains("2 of 3 claims did not hold on this machine; their pages are published with the verdict at each sentence:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("content/a/index.vi.md:6: far (contradicted): fails: vary.r"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "what helps: measure again when the machine is less busy: `measured build --rerun vary`"
        ),
        "{stderr}"
    );
}

#[test]
fn the_claims_report_lists_every_claim_as_the_last_build_decided_it() {
    let site = three_verdicts();
    let out = site.cli(&["claims", "--json"]);
    assert!(out.status.success());
    let before: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts: Vec<&str> = before
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["not-measured"; 3], "no build yet");
    site.build().unwrap_or_else(|e| panic!("{e}"));
    let out = site.cli(&["claims", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let claims = report.as_array().unwrap();
    let get = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap();
    for c in claims {
        for key in ["article", "id", "expr", "verdict", "margin", "runs"] {
            assert!(c.get(key).is_some(), "no `{key}` in {c}");
        }
        assert_eq!(c["article"], "a");
        assert_eq!(c["runs"], 3);
    }
    assert_eq!(get("fast")["verdict"], "holds");
    assert_eq!(get("fast")["expr"], "vary.t < 1000");
    // 1000 against the interval's high edge.
    let high = get("fast")["lhs"]["high"].as_f64().unwrap();
    let margin = get("fast")["margin"].as_f64().unwrap();
    assert!((margin - (1000.0 - high) / 1000.0).abs() < 1e-9, "{margin}");
    assert_eq!(get("far")["verdict"], "fails");
    assert!(get("far")["margin"].as_f64().unwrap() < 0.0);
    assert_eq!(get("split")["verdict"], "inconclusive");
    // A claim written after the build is listed as not measured; an exact one has no margin.
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  fast: vary.t < 1000\n  count: vary.n == 200",
        "Mất {{ vary.t }}. {{ claim.fast }} {{ claim.count }}\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "Takes {{ vary.t }}. {{ claim.fast }} {{ claim.count }}\n",
    );
    let out = site.cli(&["claims", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report[1]["id"], "count");
    assert_eq!(report[1]["verdict"], "not-measured");
    site.build().unwrap_or_else(|e| panic!("{e}"));
    let out = site.cli(&["claims", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report[1]["verdict"], "holds");
    assert!(report[1]["margin"].is_null(), "{}", report[1]);
    // The text form: a line a claim and the counts.
    let out = site.cli(&["claims"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a: count"), "{text}");
    assert!(text.ends_with("2 claims: 2 hold (0 with a margin under 5 %, marked !), 0 inconclusive, 0 fail, 0 not measured\n"), "{text}");
}

#[test]
fn the_claims_report_to_a_reader_that_stops_early_is_not_a_panic() {
    let site = three_verdicts();
    site.build().unwrap_or_else(|e| panic!("{e}"));
    for args in [&["claims", "--json"][..], &["claims"][..]] {
        // `measured claims | head -1`: the reader has gone before the report is written.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
            .args(args)
            .current_dir(site.root())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run measured");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_claim_that_holds_with_little_margin_is_a_warning_saying_what_to_do() {
    // 100, 101, 102: the interval's high edge is about 104.5, within 5 % of 107.
    let site = vary_site(&[100.0, 101.0, 102.0], &["tight: vary.t < 107"], "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let w = b
        .warnings
        .iter()
        .find(|d| {
            d.message
                .starts_with("claim `tight` holds with a margin of only")
        })
        .unwrap_or_else(|| panic!("{:?}", b.warnings));
    assert_eq!(w.place.line, Some(5));
    assert!(
        w.message.contains("(under 5 %): holds: vary.t = 101 ns"),
        "{}",
        w.message
    );
    assert!(w.hint.as_deref().unwrap().contains("Claim what is stable"));
}

#[test]
fn counts_that_differ_between_runs_fail_an_equality_instead_of_stopping_the_build() {
    // `vary.n` is 200 in every run; a count that moves is not equal in every run.
    let counting = r#"//! A count that one run in three gets wrong.
fn main() {
    let k: usize = std::fs::read_to_string(".count").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    std::fs::write(".count", (k + 1).to_string()).unwrap();
    let gap = if k == 1 { 1 } else { 0 };
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), format!("{{\"gap\": {gap}}}")).unwrap();
}
"#;
    let site = site_with(&[("count", counting.to_string())]);
    site.write(
        "site.toml",
        &format!("{}\n[claims]\nextra_runs = 0\n", common::SITE_TOML),
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  agree: count.gap == 0",
        "Khớp. {{ claim.agree }}\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "They agree. {{ claim.agree }}\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verdict_marks(&b, "en/a/index.html")[0][0], "fails");
}

#[test]
fn strict_names_a_failing_claim_even_when_values_drifted() {
    // Runs 100, 101, 102 first; once the source changes, 300, 301, 302: every value drifted,
    // and the claim `fast` (< 200) fails. --strict reports both, the claim at its line.
    let site = vary_site(
        &[100.0, 101.0, 102.0, 300.0, 301.0, 302.0],
        &["fast: vary.t < 200"],
        "",
    );
    site.build().unwrap_or_else(|e| panic!("{e}"));
    let main = site.read("experiments/vary/src/main.rs");
    site.write(
        "experiments/vary/src/main.rs",
        &format!("{main}\n// changed\n"),
    );
    let e = errors(&site);
    assert!(
        e.contains("content/a/index.vi.md:5:9: error: claim `fast` fails: vary.t < 200"),
        "{e}"
    );
    assert!(e.contains("moved beyond their intervals"), "{e}");
}
