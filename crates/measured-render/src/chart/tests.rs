//! Tests of the chart's SVG, read back as XML: where whiskers, bands and ticks land is checked by
//! mapping their coordinates back to values through the axis the SVG itself draws.

use roxmltree::{Document, Node};
use serde_json::json;

use super::*;

fn plain(v: f64) -> String {
    format!("{v}")
}

fn ci(low: &str, high: &str) -> String {
    format!("95% CI {low}–{high}")
}

fn series(label: &str, values: &[f64], intervals: &[Option<(f64, f64)>]) -> Series {
    Series {
        label: label.into(),
        values: values.iter().map(|v| Some(*v)).collect(),
        intervals: intervals
            .iter()
            .map(|i| i.map(|(low, high)| Interval { low, high }))
            .collect(),
    }
}

fn chart(kind: ChartKind, labels: &[&str], series: Vec<Series>) -> Chart<'static> {
    Chart {
        kind,
        title: "Sizes <b>".into(),
        x_label: "format".into(),
        y_label: "bytes".into(),
        x_labels: labels.iter().map(|l| l.to_string()).collect(),
        x_values: (0..labels.len()).map(|i| i as f64).collect(),
        log_x: false,
        log_y: false,
        series,
        format_y: &plain,
        format_x: &plain,
        format_interval: &ci,
    }
}

fn class_is(n: &Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|c| c == class))
}

/// The accessible name of a focusable point: the text of the element its `aria-labelledby`
/// names, which must be its own readout.
fn name_of<'a>(g: &Node<'a, 'a>) -> &'a str {
    let id = g.attribute("aria-labelledby").expect("a point is named");
    let tip = g
        .children()
        .find(|n| class_is(n, "tip"))
        .expect("a readout");
    assert_eq!(tip.attribute("id"), Some(id), "the name is the readout");
    tip.text().expect("a readout's text")
}

fn num(n: &Node, attr: &str) -> f64 {
    n.attribute(attr).unwrap().parse().unwrap()
}

/// The y axis the SVG draws: each tick's value (its label) and its y.
fn ticks(doc: &Document) -> Vec<(f64, f64)> {
    let grid = doc
        .descendants()
        .find(|n| class_is(n, "grid"))
        .expect("a grid");
    let lines = grid.children().filter(|n| n.has_tag_name("line"));
    let labels = grid.children().filter(|n| n.has_tag_name("text"));
    lines
        .zip(labels)
        .map(|(l, t)| (t.text().unwrap().parse().unwrap(), num(&l, "y1")))
        .collect()
}

/// The value drawn at `y`, read off the SVG's own ticks (in log10 on a log axis).
fn value_at(ticks: &[(f64, f64)], y: f64, log: bool) -> f64 {
    let tr = |v: f64| if log { v.log10() } else { v };
    let ((v0, y0), (v1, y1)) = (ticks[0], ticks[ticks.len() - 1]);
    let u = tr(v0) + (y - y0) / (y1 - y0) * (tr(v1) - tr(v0));
    if log { 10f64.powf(u) } else { u }
}

/// The vertices a path's data visits (M, L, H, V and their relative forms; Z adds none).
fn vertices(d: &str) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let (mut x, mut y) = (0.0, 0.0);
    let mut cmd = ' ';
    let mut nums: Vec<f64> = Vec::new();
    let mut flush = |cmd: char, nums: &mut Vec<f64>, x: &mut f64, y: &mut f64| {
        match cmd {
            'M' | 'L' => (*x, *y) = (nums[0], nums[1]),
            'l' => (*x, *y) = (*x + nums[0], *y + nums[1]),
            'H' => *x = nums[0],
            'h' => *x += nums[0],
            'V' => *y = nums[0],
            'v' => *y += nums[0],
            _ => return,
        }
        out.push((*x, *y));
        nums.clear();
    };
    let mut token = String::new();
    for c in d.chars().chain([' ']) {
        if c.is_ascii_digit() || c == '.' || (c == '-' && token.is_empty()) {
            token.push(c);
            continue;
        }
        if !token.is_empty() {
            nums.push(token.parse().unwrap());
            token.clear();
        }
        if c == '-' {
            token.push(c);
        } else if c.is_ascii_alphabetic() {
            flush(cmd, &mut nums, &mut x, &mut y);
            cmd = c;
        }
    }
    flush(cmd, &mut nums, &mut x, &mut y);
    out
}

#[test]
fn coordinates_are_tenths_without_a_trailing_zero() {
    let shown: Vec<String> = [78.0, 280.62, 74.8, 0.04, 12.96]
        .map(|v| Coord(v).to_string())
        .into();
    assert_eq!(shown, ["78", "280.6", "74.8", "0", "13"]);
}

#[test]
fn a_line_is_relative_steps_through_its_vertices() {
    let points = [
        (78.0, 280.6),
        (87.5, 280.6),
        (96.94, 251.2),
        (96.94, 260.0),
        (106.4, 250.05),
        (110.0, 255.0),
    ];
    let d = line_path(&points);
    assert_eq!(d, "M78 280.6h9.5l9.4-29.4v8.8l9.5-9.9l3.6 4.9");
    let back: Vec<(i64, i64)> = vertices(&d)
        .iter()
        .map(|&(x, y)| (tenths(x), tenths(y)))
        .collect();
    let expected: Vec<(i64, i64)> = points
        .iter()
        .map(|&(x, y)| (tenths(x), tenths(y)))
        .collect();
    assert_eq!(
        back, expected,
        "the test's path reader reads what line_path writes"
    );
}

#[test]
fn intervals_come_from_timing_summaries_and_ratios_only() {
    let timing = json!({"type": "timing", "median": 5.0, "ci_low": 4.0, "ci_high": 7.0});
    let ratio = json!({"type": "ratio", "value": 2.0, "low": 1.5, "high": 2.5});
    assert_eq!(
        Interval::of(&timing),
        Some(Interval {
            low: 4.0,
            high: 7.0
        })
    );
    assert_eq!(
        Interval::of(&ratio),
        Some(Interval {
            low: 1.5,
            high: 2.5
        })
    );
    assert_eq!(Interval::of(&json!(3)), None);
    assert_eq!(
        Interval::of(&json!({"type": "timing", "median": 5.0})),
        None
    );
    assert_eq!(interval_fields(&timing), Some(("ci_low", "ci_high")));
}

#[test]
fn every_bar_with_an_interval_has_a_whisker_at_its_bounds() {
    let bars = chart(
        ChartKind::Bar,
        &["JSON", "CBOR", "Protobuf"],
        vec![
            series(
                "encode",
                &[440.0, 339.0, 120.0],
                &[Some((410.0, 480.0)), Some((300.0, 350.0)), None],
            ),
            series(
                "decode",
                &[220.0, 180.0, 90.0],
                &[
                    Some((200.0, 260.0)),
                    Some((170.0, 185.0)),
                    Some((80.0, 95.0)),
                ],
            ),
        ],
    );
    let svg = bars.svg("c1").unwrap();
    let doc = Document::parse(&svg).unwrap();
    let ticks = ticks(&doc);
    let points: Vec<Node> = doc.descendants().filter(|n| class_is(n, "pt")).collect();
    assert_eq!(points.len(), 6);
    let mut whiskers = 0;
    for (point, (value, interval)) in points.iter().zip([
        (440.0, Some((410.0, 480.0))),
        (339.0, Some((300.0, 350.0))),
        (120.0, None),
        (220.0, Some((200.0, 260.0))),
        (180.0, Some((170.0, 185.0))),
        (90.0, Some((80.0, 95.0))),
    ]) {
        let rect = point.children().find(|n| n.has_tag_name("rect")).unwrap();
        let top = value_at(&ticks, num(&rect, "y"), false);
        assert!((top - value).abs() < 1.0, "bar top {top}, value {value}");
        let whisker = point.children().find(|n| class_is(n, "ci"));
        let Some((low, high)) = interval else {
            assert!(whisker.is_none(), "no interval, no whisker");
            continue;
        };
        whiskers += 1;
        let v = vertices(whisker.unwrap().attribute("d").unwrap());
        let (x, y_high, y_low) = (v[0].0, v[0].1, v[1].1);
        assert_eq!(v[1].0, x, "the whisker is vertical");
        let (left, width) = (num(&rect, "x"), num(&rect, "width"));
        assert!(
            (x - (left + width / 2.0)).abs() < 0.11,
            "centred on its bar"
        );
        assert!((value_at(&ticks, y_high, false) - high).abs() < 1.0);
        assert!((value_at(&ticks, y_low, false) - low).abs() < 1.0);
    }
    assert_eq!(whiskers, 5);
}

#[test]
fn a_line_carries_a_band_through_its_intervals() {
    let line = Chart {
        log_x: true,
        x_values: vec![1.0, 10.0, 100.0, 1000.0],
        ..chart(
            ChartKind::Line,
            &["1", "10", "100", "1000"],
            vec![series(
                "median",
                &[5.0, 9.0, 30.0, 70.0],
                &[
                    Some((4.0, 6.0)),
                    Some((8.0, 11.0)),
                    Some((25.0, 40.0)),
                    Some((60.0, 90.0)),
                ],
            )],
        )
    };
    let svg = line.svg("c2").unwrap();
    let doc = Document::parse(&svg).unwrap();
    let ticks = ticks(&doc);
    let band = doc.descendants().find(|n| class_is(n, "band")).unwrap();
    let outline: Vec<f64> = vertices(band.attribute("d").unwrap())
        .iter()
        .map(|&(_, y)| value_at(&ticks, y, false))
        .collect();
    let expected = [6.0, 11.0, 40.0, 90.0, 60.0, 25.0, 8.0, 4.0];
    assert_eq!(outline.len(), expected.len());
    for (got, want) in outline.iter().zip(expected) {
        assert!((got - want).abs() < 0.1, "{outline:?}");
    }
    assert_eq!(doc.descendants().filter(|n| class_is(n, "ci")).count(), 0);
}

#[test]
fn a_log_axis_has_its_ticks_at_powers_of_ten() {
    let bars = Chart {
        log_y: true,
        ..chart(
            ChartKind::Bar,
            &["a", "b", "c"],
            vec![series(
                "t",
                &[3.0, 4200.0, 0.5],
                &[None, Some((3900.0, 4700.0)), Some((0.4, 0.6))],
            )],
        )
    };
    let svg = bars.svg("c3").unwrap();
    let doc = Document::parse(&svg).unwrap();
    let ticks = ticks(&doc);
    let values: Vec<f64> = ticks.iter().map(|t| t.0).collect();
    assert_eq!(values, [0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0]);
    for pair in ticks.windows(2) {
        let gap = pair[0].1 - pair[1].1;
        assert!(
            (gap - (ticks[0].1 - ticks[1].1)).abs() < 0.11,
            "decades are evenly spaced"
        );
    }
    let tops: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .map(|r| value_at(&ticks, num(&r, "y"), true))
        .collect();
    for (got, want) in tops.iter().zip([3.0, 4200.0, 0.5]) {
        assert!((got / want - 1.0).abs() < 0.01, "{tops:?}");
    }
}

#[test]
fn a_log_axis_rejects_what_it_cannot_show() {
    let zero = Chart {
        log_y: true,
        ..chart(
            ChartKind::Line,
            &["1", "2"],
            vec![series("varint", &[1.0, 0.0], &[])],
        )
    };
    let e = zero.svg("c4").unwrap_err();
    assert_eq!(
        e.message,
        "series `varint` at `2` is 0, and a log y axis shows only values above zero"
    );
    assert!(e.hint.contains("remove `log_y`"), "{}", e.hint);
    let reaching = Chart {
        series: vec![series("t", &[2.0, 3.0], &[None, Some((-1.0, 4.0))])],
        ..zero
    };
    assert_eq!(
        reaching.svg("c5").unwrap_err().message,
        "series `t` at `2` has an interval reaching -1, and a log y axis shows only values above zero"
    );
    let stacked = Chart {
        kind: ChartKind::Stacked,
        series: vec![series("t", &[2.0, 3.0], &[])],
        ..reaching
    };
    assert_eq!(
        stacked.svg("c6").unwrap_err().message,
        "a stacked chart cannot have a log y axis"
    );
}

#[test]
fn every_point_is_a_focusable_image_named_by_its_value_and_interval() {
    let bars = chart(
        ChartKind::Bar,
        &["JSON", "CBOR"],
        vec![series("size", &[440.0, 339.0], &[Some((430.0, 452.0))])],
    );
    let svg = bars.svg("c1").unwrap();
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("role"), Some("group"));
    assert_eq!(root.attribute("aria-labelledby"), Some("c1-t"));
    assert!(
        svg.contains("<title id=\"c1-t\">Sizes &lt;b&gt;</title>"),
        "{svg}"
    );
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| class_is(n, "pt"))
        .map(|g| {
            assert_eq!(g.attribute("tabindex"), Some("0"));
            assert_eq!(g.attribute("role"), Some("img"));
            name_of(&g)
        })
        .collect();
    assert_eq!(
        names,
        ["JSON · size: 440 (95% CI 430–452)", "CBOR · size: 339"]
    );
    let hidden = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && !class_is(n, "tip"))
        .all(|t| {
            t.ancestors()
                .any(|a| a.attribute("aria-hidden") == Some("true"))
        });
    assert!(hidden, "axis labels are hidden from screen readers: {svg}");
}

#[test]
fn lines_and_stacks_keep_their_classes_and_titles() {
    let line = Chart {
        log_x: true,
        x_values: vec![1.0, 1000.0],
        ..chart(
            ChartKind::Line,
            &["1", "1000"],
            vec![Series {
                label: "size".into(),
                values: vec![None, Some(339.0)],
                intervals: vec![],
            }],
        )
    };
    let svg = line.svg("c2").unwrap();
    assert!(svg.contains("<path d=\"M"), "{svg}");
    assert_eq!(svg.matches("<circle").count(), 1);
    assert!(!svg.contains(" r="), "{svg}");
    assert!(
        svg.contains("\">format = 1000 · size: 339</text>"),
        "a point is named by its own x, not its rank among the points drawn: {svg}"
    );
    let stacked = chart(
        ChartKind::Stacked,
        &["a"],
        vec![
            series("x", &[2.0], &[Some((1.0, 3.0))]),
            series("y", &[3.0], &[]),
        ],
    );
    let svg = stacked.svg("c3").unwrap();
    assert_eq!(svg.matches("<rect class=\"s").count(), 2);
    assert!(
        !svg.contains("class=\"ci\""),
        "a stack draws no whiskers: {svg}"
    );
    assert!(svg.contains("\">a · x: 2 (95% CI 1–3)</text>"), "{svg}");
}

#[test]
fn the_stylesheet_styles_what_the_chart_draws() {
    let css = include_str!("../../../../static/style.css");
    assert!(
        css.contains(".chart circle { r: 3.5px; }"),
        "the dots' radius comes from the theme's stylesheet"
    );
    assert!(
        css.contains(&format!("transform: translate({LEFT}px, ")),
        "the readout line starts where the plot does"
    );
    for rule in [
        ".chart .band",
        ".chart .ci",
        ".chart .pt:focus",
        ".chart .pt:hover .tip",
    ] {
        assert!(css.contains(rule), "style.css has no `{rule}`");
    }
}

#[test]
fn a_line_chart_is_read_by_columns_one_an_x() {
    let line = chart(
        ChartKind::Line,
        &["1", "2", "3"],
        vec![
            series("plain", &[1.0, 2.0, 3.0], &[None, Some((1.5, 2.5)), None]),
            Series {
                label: "zigzag".into(),
                values: vec![Some(1.0), None, Some(2.0)],
                intervals: vec![],
            },
        ],
    );
    let svg = line.svg("c9").unwrap();
    let doc = Document::parse(&svg).unwrap();
    let stops: Vec<Node> = doc.descendants().filter(|n| class_is(n, "pt")).collect();
    let names: Vec<&str> = stops.iter().map(name_of).collect();
    assert_eq!(
        names,
        [
            "format = 1 · plain: 1; zigzag: 1",
            "format = 2 · plain: 2 (95% CI 1.5–2.5)",
            "format = 3 · plain: 3; zigzag: 2",
        ]
    );
    let spans: Vec<(f64, f64)> = stops
        .iter()
        .map(|g| {
            let r = g.children().find(|n| class_is(n, "col")).unwrap();
            (num(&r, "x"), num(&r, "x") + num(&r, "width"))
        })
        .collect();
    assert_eq!(
        spans[0].0, LEFT,
        "the first column starts at the plot's edge"
    );
    assert_eq!(spans[2].1, W - RIGHT, "the last ends at its other edge");
    assert!((spans[0].1 - spans[1].0).abs() < 0.11 && (spans[1].1 - spans[2].0).abs() < 0.11);
    let dots = doc.descendants().filter(|n| n.has_tag_name("circle"));
    assert_eq!(dots.count(), 5, "every value still has its dot");
}

#[test]
fn a_dense_line_has_no_dots_but_every_x_keeps_its_readout() {
    let labels: Vec<String> = (0..30).map(|i| i.to_string()).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let values: Vec<f64> = (0..30).map(|i| f64::from(i) * 2.0).collect();
    let dense = chart(
        ChartKind::Line,
        &labels,
        vec![series("a", &values, &[]), series("b", &values[..24], &[])],
    );
    let svg = dense.svg("c9").unwrap();
    let doc = Document::parse(&svg).unwrap();
    // 30 points of `a` are too many for dots; the 24 of `b` keep theirs.
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        24
    );
    assert_eq!(doc.descendants().filter(|n| class_is(n, "pt")).count(), 30);
}

#[test]
fn a_straight_run_is_one_step_and_still_passes_through_its_points() {
    // A step chart: flat runs between jumps. Each run is drawn as one `h`, not one per point.
    let pts = [
        (0.0, 5.0),
        (1.0, 5.0),
        (2.0, 5.0),
        (2.0, 3.0),
        (3.0, 3.0),
        (4.0, 3.0),
    ];
    assert_eq!(super::line_path(&pts), "M0 5h2v-2h2");
    // A turn back along the same line keeps its far end.
    let back = [(0.0, 1.0), (3.0, 1.0), (1.0, 1.0)];
    assert_eq!(super::line_path(&back), "M0 1h3h-2");
}
