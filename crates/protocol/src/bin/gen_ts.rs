//! Writes the TypeScript copy of the protocol crate into `packages/core`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(symbolon_protocol::typescript::OUTPUT_PATH);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, symbolon_protocol::typescript::render())?;
    println!("wrote {}", symbolon_protocol::typescript::OUTPUT_PATH);
    Ok(())
}
