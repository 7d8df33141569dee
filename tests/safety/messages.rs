//! Issue 35, messages that named no place or gave no advice: each now says where, what is
//! wrong and what to do, and following its advice works.

use super::common::TestSite;
use super::errors;

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
