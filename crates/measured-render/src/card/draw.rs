//! Rasterising a card's SVG to PNG with resvg: one read-only font database holding only the
//! vendored faces (never the system's fonts, which a bare CI machine does not have and which
//! would make a card depend on the machine that drew it), loaded once.

use std::sync::{Arc, LazyLock};

use resvg::{tiny_skia, usvg};

use super::layout::{BOLD, FAMILY, REGULAR};
use super::{HEIGHT, WIDTH};

static OPTIONS: LazyLock<usvg::Options<'static>> = LazyLock::new(|| {
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(REGULAR.to_vec());
    fonts.load_font_data(BOLD.to_vec());
    fonts.set_sans_serif_family(FAMILY);
    usvg::Options {
        font_family: FAMILY.to_string(),
        fontdb: Arc::new(fonts),
        ..usvg::Options::default()
    }
});

/// The PNG of `svg`, a card the layout made (so an error here is a bug of the layout).
pub(super) fn png(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, &OPTIONS).map_err(|e| e.to_string())?;
    let mut pixmap = tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or("no pixmap")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode(&pixmap).map_err(|e| e.to_string())
}

/// The pixmap as a PNG, its bytes as they are: the card's background is opaque, so every
/// pixel's alpha is 255 and its premultiplied colour is its colour.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::with_capacity(96 * 1024);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixmap.data())?;
    writer.finish()?;
    Ok(out)
}
