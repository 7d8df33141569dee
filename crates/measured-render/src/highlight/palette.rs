//! The class vocabulary of highlighted code, shared by the HTML and the stylesheet so the two
//! always agree: every colour the light or the dark theme can give a token (raised to a contrast
//! of 4.5:1 on the token's background) is one short class, and so is each font style.
//!
//! A token carries at most a light colour (`l3`), a dark colour (`d5`), a light and a dark
//! background (`lb0`, `db1`) and font classes (`fb`, `fi`, `fu`). The colour classes only set
//! custom properties; one rule turns them into `color: light-dark(…)`, so the stylesheet has one
//! short rule per colour instead of one per pair of colours.

use std::sync::LazyLock;

use syntect::highlighting::{Color, FontStyle, Highlighter, Style, Theme, ThemeSet};

pub(super) static THEMES: LazyLock<ThemeSet> = LazyLock::new(ThemeSet::load_defaults);

pub(super) type Rgb = [u8; 3];

/// The classes of a pair of themes.
#[derive(Debug)]
pub(super) struct Palette {
    pub(super) light: Side,
    pub(super) dark: Side,
    /// Font styles some rule of either theme sets: only they get a class and a rule.
    fonts: FontStyle,
}

/// One theme's half of the vocabulary.
#[derive(Debug)]
pub(super) struct Side {
    /// `l` for the light theme, `d` for the dark one: the classes' and properties' prefix.
    prefix: char,
    pub(super) highlighter: Highlighter<'static>,
    /// What syntect gives a token that no rule styles.
    plain: Style,
    /// The block's own colours in the stylesheet.
    pub(super) page_bg: Rgb,
    page_fg: Rgb,
    /// Foreground colours a token can have other than `page_fg`: class `{prefix}{index}`.
    pub(super) colours: Vec<Rgb>,
    /// Background colours a token can have other than `page_bg`: class `{prefix}b{index}`.
    pub(super) backgrounds: Vec<Rgb>,
}

/// Font classes, in the order they are written.
const FONT_CLASSES: [(FontStyle, &str, &str); 3] = [
    (FontStyle::BOLD, "fb", "font-weight:bold"),
    (FontStyle::ITALIC, "fi", "font-style:italic"),
    (FontStyle::UNDERLINE, "fu", "text-decoration:underline"),
];

impl Palette {
    /// The vocabulary of the `light` and `dark` themes (syntect's built-in theme names).
    pub(super) fn new(light: &str, dark: &str) -> Result<Palette, String> {
        let (light, dark) = (theme(light)?, theme(dark)?);
        let fonts = light
            .scopes
            .iter()
            .chain(&dark.scopes)
            .filter_map(|item| item.style.font_style)
            .fold(FontStyle::empty(), |all, f| all | f);
        Ok(Palette {
            light: Side::new('l', light, [255, 255, 255]),
            dark: Side::new('d', dark, [24, 30, 38]),
            fonts,
        })
    }

    /// The classes of a token styled `light` by the light theme and `dark` by the dark one
    /// (space-separated; empty for a token that looks like the block's plain text in both).
    pub(super) fn classes(&self, light: Style, dark: Style) -> String {
        let mut classes = Vec::new();
        self.light.classes(light, &mut classes);
        self.dark.classes(dark, &mut classes);
        // The font comes from the light theme, or from the dark one where the light one has
        // none: one font for both schemes, as a reader switching schemes expects.
        let font = if light.font_style.is_empty() {
            dark.font_style
        } else {
            light.font_style
        };
        for (style, class, _) in FONT_CLASSES {
            if font.contains(style) {
                classes.push(class.to_string());
            }
        }
        classes.join(" ")
    }

    /// Whether a token so styled looks different from plain text even when it is only
    /// whitespace (a background or an underline shows; a colour or a weight does not).
    pub(super) fn shows_on_whitespace(&self, light: Style, dark: Style) -> bool {
        self.light.has_background(light)
            || self.dark.has_background(dark)
            || (light.font_style | dark.font_style).contains(FontStyle::UNDERLINE)
    }

    /// The stylesheet: the blocks' colours, then one rule per class of the vocabulary.
    pub(super) fn stylesheet(&self, light_name: &str, dark_name: &str) -> String {
        let (l, d) = (&self.light, &self.dark);
        let mut out = format!(
            "/* Code colours of {light_name} (light) and {dark_name} (dark), raised to a contrast of 4.5:1; by measured. */\n\
             pre.code,pre.output{{background:{};color:{}}}\
             pre.code span{{color:light-dark(var(--l,{}),var(--d,{}))",
            pair(l.page_bg, d.page_bg),
            pair(l.page_fg, d.page_fg),
            hex(l.page_fg),
            hex(d.page_fg),
        );
        if !l.backgrounds.is_empty() || !d.backgrounds.is_empty() {
            out.push_str(";background:light-dark(var(--lb,#0000),var(--db,#0000))");
        }
        out.push('}');
        for side in [l, d] {
            let p = side.prefix;
            for (i, c) in side.colours.iter().enumerate() {
                out.push_str(&format!(".{p}{i}{{--{p}:{}}}", hex(*c)));
            }
            for (i, c) in side.backgrounds.iter().enumerate() {
                out.push_str(&format!(".{p}b{i}{{--{p}b:{}}}", hex(*c)));
            }
        }
        for (style, class, decl) in FONT_CLASSES {
            if self.fonts.contains(style) {
                out.push_str(&format!(".{class}{{{decl}}}"));
            }
        }
        out.push('\n');
        out
    }
}

impl Side {
    fn new(prefix: char, theme: &'static Theme, fallback_bg: Rgb) -> Side {
        let highlighter = Highlighter::new(theme);
        let plain = highlighter.get_default();
        let page_bg = theme
            .settings
            .background
            .map_or(fallback_bg, |c| rgb(c, fallback_bg));
        let page_fg = legible(
            theme
                .settings
                .foreground
                .map_or([128, 128, 128], |c| rgb(c, page_bg)),
            page_bg,
        );
        // Every background a rule can give, then every foreground on every one of them: a
        // superset of what tokens get, small because most pairs coincide.
        let mut grounds = vec![page_bg];
        for c in theme.scopes.iter().filter_map(|item| item.style.background) {
            let c = rgb(c, page_bg);
            if !grounds.contains(&c) {
                grounds.push(c);
            }
        }
        let fores: Vec<Color> = std::iter::once(plain.foreground)
            .chain(theme.scopes.iter().filter_map(|item| item.style.foreground))
            .collect();
        let mut colours = Vec::new();
        for &bg in &grounds {
            for &fg in &fores {
                let c = legible(rgb(fg, bg), bg);
                if c != page_fg && !colours.contains(&c) {
                    colours.push(c);
                }
            }
        }
        Side {
            prefix,
            highlighter,
            plain,
            page_bg,
            page_fg,
            colours,
            backgrounds: grounds.split_off(1),
        }
    }

    fn has_background(&self, style: Style) -> bool {
        style.background != self.plain.background
            && rgb(style.background, self.page_bg) != self.page_bg
    }

    /// The background and foreground a token so styled shows, as the stylesheet paints them.
    pub(super) fn colours(&self, style: Style) -> (Rgb, Rgb) {
        let bg = if self.has_background(style) {
            rgb(style.background, self.page_bg)
        } else {
            self.page_bg
        };
        let fg = if style.foreground == self.plain.foreground && bg == self.page_bg {
            self.page_fg
        } else {
            legible(rgb(style.foreground, bg), bg)
        };
        (bg, fg)
    }

    fn classes(&self, style: Style, out: &mut Vec<String>) {
        let p = self.prefix;
        let (bg, fg) = self.colours(style);
        if let Some(i) = self.backgrounds.iter().position(|c| *c == bg) {
            out.push(format!("{p}b{i}"));
        }
        if let Some(i) = self.colours.iter().position(|c| *c == fg) {
            out.push(format!("{p}{i}"));
        }
    }
}

fn theme(name: &str) -> Result<&'static Theme, String> {
    THEMES.themes.get(name).ok_or_else(|| {
        let names: Vec<&str> = THEMES.themes.keys().map(String::as_str).collect();
        format!(
            "unknown highlight theme `{name}`; the themes are: {}",
            names.join(", ")
        )
    })
}

/// A theme colour as opaque RGB: its alpha blended over `under`.
fn rgb(c: Color, under: Rgb) -> Rgb {
    let a = f64::from(c.a) / 255.0;
    let mix = |v: u8, u: u8| (f64::from(v) * a + f64::from(u) * (1.0 - a)).round() as u8;
    [mix(c.r, under[0]), mix(c.g, under[1]), mix(c.b, under[2])]
}

fn pair(l: Rgb, d: Rgb) -> String {
    format!("light-dark({},{})", hex(l), hex(d))
}

pub(super) fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.03928 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio of two colours.
pub(super) fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `c`, moved towards black or white (whichever contrasts more with `bg`) until it reads at
/// 4.5:1 or more on `bg`.
pub(super) fn legible(c: Rgb, bg: Rgb) -> Rgb {
    let target = if contrast([0, 0, 0], bg) >= contrast([255, 255, 255], bg) {
        [0u8, 0, 0]
    } else {
        [255u8, 255, 255]
    };
    let mut out = c;
    for step in 0..=20 {
        let t = f64::from(step) / 20.0;
        let mix = |i: usize| (f64::from(c[i]) * (1.0 - t) + f64::from(target[i]) * t).round() as u8;
        out = [mix(0), mix(1), mix(2)];
        if contrast(out, bg) >= 4.6 {
            break;
        }
    }
    out
}
